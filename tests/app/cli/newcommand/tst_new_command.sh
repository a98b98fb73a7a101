#!/usr/bin/env bash
# A new command is one file and one line (docs/architecture.md, "How to add"): entrena-cli built with
# GreetCommand.cpp and the line of ExtraCommands.h lists it in --help, explains it, completes it with
# the installed bash completion, runs it, and refuses its mistakes with exit status 2.
#
#   tst_new_command.sh ENTRENA_CLI_WITH_GREET COMPLETION_FILE
set -uo pipefail
cli=$1 completion=$2
export ENTRENA_NO_TUNE=1
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

overview=$("$cli" --help)
grep -q '^  greet  *say hello$' <<<"$overview" || fail "--help does not list greet: $overview"
grep -q '^  or:  entrena-cli greet --name NAME' <<<"$overview" || fail "--help has no usage line for greet"
grep -q '^  train ' <<<"$overview" || fail "the other commands went missing: $overview"

help=$("$cli" greet --help)
for option in "--name NAME" "--times N" "--json" "-h, --help"; do
    grep -q "^  $option " <<<"$help" || fail "greet --help lacks $option: $help"
done

out=$("$cli" greet --name Ada --times 2) && [[ $out == $'hello, Ada\nhello, Ada' ]] || fail "greet printed '$out'"
out=$("$cli" greet --json --name=Ada) && [[ $out == '{"event":"greeting","name":"Ada"}' ]] || fail "greet --json printed '$out'"

err=$("$cli" greet --name Ada --times 0 2>&1 >/dev/null)
status=$?
((status == 2)) || fail "--times 0 exited $status"
grep -q "^entrena-cli: --times needs a whole number of at least 1, got '0'" <<<"$err" || fail "--times 0 said: $err"
grep -q "^usage: entrena-cli greet " <<<"$err" || fail "no usage line after the mistake: $err"
err=$("$cli" greet 2>&1 >/dev/null)
status=$?
((status == 2)) && grep -q "greet needs --name NAME" <<<"$err" || fail "greet without --name: status $status, '$err'"
err=$("$cli" greet --name Ada --bogus 2>&1 >/dev/null)
status=$?
((status == 2)) && grep -q "'--bogus' is not an option of 'greet'" <<<"$err" || fail "--bogus: status $status, '$err'"

# The contract's reading where CLI11's differs: a value is the next word whatever it looks like, an
# empty inline value is empty (never the next word), a switch takes no value, and --help before any
# mistake is help.
out=$("$cli" greet --name --json) && [[ $out == 'hello, --json' ]] || fail "--name --json printed '$out'"
err=$("$cli" greet --name= --json 2>&1 >/dev/null)
status=$?
((status == 2)) && grep -q "greet needs --name NAME" <<<"$err" || fail "--name= took the next word: status $status, '$err'"
err=$("$cli" greet --name Ada --json=1 2>&1 >/dev/null)
status=$?
((status == 2)) && grep -q "^entrena-cli: --json takes no value" <<<"$err" || fail "--json=1: status $status, '$err'"
err=$("$cli" greet --name Ada --bogus=3 2>&1 >/dev/null)
status=$?
((status == 2)) && grep -q "'--bogus' is not an option of 'greet'" <<<"$err" || fail "--bogus=3: '$err'"
"$cli" greet --help --times x | grep -q "^Usage: entrena-cli greet" || fail "--help before a bad value is not help"

# The kinds of tests/engine/newkinds/, linked into this program too, are in config-keys with their
# defaults (each from its file and its registration line).
keys=$("$cli" config-keys)
for key in "scheduler.power  *1.0" "scheduler.total_iters  *5" "optimizer.lr_decay  *0.0" "model.bias  *true" \
           'model.init  *{"bias":0.0,"weight_std":0.01}'; do
    grep -q "^$key$" <<<"$keys" || fail "config-keys lacks '$key'"
done
# The precision has no keys: it is a row of the precisions' table.
"$cli" config-keys --markdown | grep -qF '| `bf16_scaled` | bf16 (autocast, loss scaling): bf16 arithmetic' ||
    fail "config-keys --markdown lacks the bf16_scaled precision"

# The completion, as bash drives it on Tab.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
ln -s "$cli" "$bin/entrena-cli"
export PATH="$bin:$PATH"
# shellcheck source=/dev/null
source "$completion"
complete_line() {
    read -ra COMP_WORDS <<<"$1"
    [[ $1 == *' ' ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _entrena_cli
    echo " ${COMPREPLY[*]} "
}
[[ $(complete_line "entrena-cli gr") == *" greet "* ]] || fail "Tab after 'gr' offers: $(complete_line "entrena-cli gr")"
got=$(complete_line "entrena-cli greet --")
for option in --name --times --json --help; do
    [[ $got == *" $option "* ]] || fail "Tab after 'greet --' lacks $option: $got"
done

((failed == 0)) && echo "new command: every check passed"
exit $((failed > 0))
