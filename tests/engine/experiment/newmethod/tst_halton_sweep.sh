#!/usr/bin/env bash
# The sweep method of HaltonMethod.cpp through entrena-cli built with it (and nothing else changed):
# --help names it and its --skip, a real sweep trains its trials at the sequence's points, and the
# experiment keeps its setting.
#
#   tst_halton_sweep.sh ENTRENA_CLI_EXTENDED
set -uo pipefail
cli=$1
export ENTRENA_NO_TUNE=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

help=$("$cli" sweep --help)
grep -q "; halton:" <<<"$help" || fail "sweep --help does not describe halton"
grep -q "^  --skip N " <<<"$help" || fail "sweep --help lacks --skip"
grep -q "|halton\]" <<<"$help" || fail "the usage line does not list halton"

cat >"$work/base.json" <<'JSON'
{"name": "halton", "data": {"dataset": "synthetic", "batch_size": 64}, "model": {"arch": "mlp", "hidden": [16]},
 "scheduler": {"name": "constant"}, "train": {"epochs": 1}}
JSON
echo '{"optimizer.lr": {"log_uniform": [0.0001, 1.0]}}' >"$work/space.json"
out=$("$cli" sweep --config "$work/base.json" --space "$work/space.json" --method halton --skip 3 --trials 3 \
    --db "$work/runs.sqlite" --json 2>"$work/err")
status=$?
((status == 0)) || fail "the sweep exited $status: $(cat "$work/err")"
# Trials 0, 1, 2 take points 3, 4, 5: the radical inverses 0.75, 0.125, 0.625 in base 2.
python3 - "$out" <<'PY' || fail "the trials' rates are not the Halton points: $out"
import json, math, sys
events = [json.loads(line) for line in sys.argv[1].splitlines() if line.startswith("{")]
lrs = [e["params"]["optimizer.lr"] for e in events if e["event"] == "trial_start"]
want = [math.exp(math.log(1e-4) + u * (math.log(1.0) - math.log(1e-4))) for u in (0.75, 0.125, 0.625)]
ends = [e for e in events if e["event"] == "trial_end"]
assert len(lrs) == 3 and all(abs(a - b) < 1e-12 * b for a, b in zip(lrs, want)), (lrs, want)
assert len(ends) == 3 and all(e["status"] == "finished" and e["metric"] is not None for e in ends), ends
PY
# The experiment is halton's, and its stored settings keep --skip (what --resume reads back).
"$cli" experiments --db "$work/runs.sqlite" --json | python3 -c '
import json, sys
e = json.load(sys.stdin)
assert len(e) == 1 and e[0]["method"] == "halton", e' || fail "experiments --json does not show the halton sweep"
python3 - "$work/runs.sqlite" <<'PY' || fail "the stored settings lost --skip"
import json, sqlite3, sys
settings = json.loads(sqlite3.connect(sys.argv[1]).execute("SELECT settings FROM experiments").fetchone()[0])
assert settings["method"] == "halton" and settings["skip"] == 3, settings
PY

((failed == 0)) && echo "halton sweep: every check passed"
exit $((failed > 0))
