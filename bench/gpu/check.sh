#!/usr/bin/env bash
# The GPU check, one prepared script for a lent GPU machine (it reaches no package archive):
#  1. unpacks .gpu-debs/ (packaging/gpu-debs.sh) into a prefix with dpkg -x;
#  2. builds the engine and entrena-cli (ENTRENA_GUI=OFF) against the CUDA LibTorch of the
#     machine's Python torch (torch.utils.cmake_prefix_path);
#  3. trains the CNN on one GPU, and with NCCL on two when there are two, and the same model with
#     a plain PyTorch script on the same GPU (bench/peer.py --device cuda);
#  4. writes what it saw to $OUT (a folder; default ./gpu-out): logs, JSON events, a summary.
# Untested: no GPU has been lent to this project's sessions yet.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/check.log") 2>&1
step() { printf '\n== %s\n' "$*"; }

step "machine"
nvidia-smi || true
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "gpus", torch.cuda.device_count())'

step "unpack .gpu-debs"
PREFIX=$PWD/.gpu-prefix
rm -rf "$PREFIX" && mkdir -p "$PREFIX"
for deb in .gpu-debs/*.deb; do dpkg -x "$deb" "$PREFIX"; done
export PATH=$PREFIX/usr/bin:$PATH
export LD_LIBRARY_PATH=$PREFIX/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

step "build (ENTRENA_GUI=OFF, CUDA LibTorch)"
TORCH_PREFIX=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
cmake -S . -B build/gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DENTRENA_GUI=OFF -DBUILD_TESTING=OFF \
    -DCMAKE_PREFIX_PATH="$TORCH_PREFIX;$PREFIX/usr" -DCMAKE_INCLUDE_PATH="$PREFIX/usr/include" \
    -DCMAKE_LIBRARY_PATH="$PREFIX/usr/lib/x86_64-linux-gnu" || exit 1
cmake --build build/gpu -j"$(nproc)" --target entrena-cli || exit 1
CLI=build/gpu/app/entrena-cli
$CLI devices --json > "$OUT/devices.json"; cat "$OUT/devices.json"

DATA=$PREFIX/usr/share/datasets/fashion-mnist
cat > "$OUT/cnn.json" <<JSON
{"name": "gpu-cnn", "seed": 1,
 "data": {"dataset": "fashion-mnist", "path": "$DATA", "val_fraction": 0, "batch_size": 128, "workers": 2},
 "model": {"arch": "cnn"},
 "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": true, "weight_decay": 0.0005},
 "scheduler": {"name": "constant"},
 "train": {"epochs": 1, "max_steps": 400, "log_every": 50, "checkpoint_every": 0},
 "devices": {"type": "cuda", "ids": [0]}}
JSON

step "one GPU: Entrena, then the plain PyTorch peer, 3 times each, interleaved"
for i in 1 2 3; do
    $CLI train --config "$OUT/cnn.json" --db "$OUT/runs.sqlite" --json > "$OUT/single-$i.jsonl" || echo "single run $i failed"
    python3 bench/peer.py --arch cnn --steps 400 --device cuda --data "$DATA" > "$OUT/peer-$i.json" || echo "peer $i failed"
done

GPUS=$(python3 -c 'import torch; print(torch.cuda.device_count())')
if [ "$GPUS" -ge 2 ]; then
    step "two GPUs, NCCL"
    $CLI train --config "$OUT/cnn.json" --set 'devices.ids=[0,1]' --set data.batch_size=64 --db "$OUT/runs.sqlite" \
        --json > "$OUT/nccl.jsonl" || echo "NCCL run failed"
else
    echo "one GPU: no NCCL run" | tee "$OUT/nccl.txt"
fi

step "summary"
python3 - "$OUT" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
def end(path):
    try:
        return [json.loads(l) for l in open(path) if '"event":"end"' in l][0]
    except Exception:
        return None
ours = [e["samples_per_s"] for e in map(end, sorted(glob.glob(out + "/single-*.jsonl"))) if e and e["status"] == "finished"]
peer = []
for p in sorted(glob.glob(out + "/peer-*.json")):
    try:
        peer.append(json.loads(open(p).read().strip().splitlines()[-1])["samples_per_s"])
    except Exception:
        pass
summary = {"entrena_images_per_s": ours, "peer_images_per_s": peer}
if ours and peer:
    summary["ratio_median"] = statistics.median(ours) / statistics.median(peer)
nccl = end(out + "/nccl.jsonl")
if nccl:
    summary["nccl"] = {k: nccl.get(k) for k in ("status", "samples_per_s", "error")}
json.dump(summary, open(out + "/summary.json", "w"), indent=1)
print(json.dumps(summary, indent=1))
PY
