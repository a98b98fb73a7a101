#!/usr/bin/python3
"""Data-parallel scaling on this machine: one rank against two (Gloo, one process per rank), the
same global batch (1 x 128 against 2 x 64), and PyTorch's DistributedDataParallel (bench/peer_ddp.py)
as the peer, measured in the same invocation, interleaved, medians of several runs.

    /usr/bin/python3 bench/scaling.py --cli build/release/app/entrena-cli [--runs 3]

Per Entrena run it reads the JSON event stream: samples/s and seconds of the epoch; per step
(medians over the logged intervals) the step time, the exposed communication (`timing.comm`: the
wait after backward for the all-reduce to finish) and the all-reduce window (`comm_busy_seconds`: from
the first bucket sent to the last bucket back, while backward still runs or not). The part of the
window before backward ended is communication overlapping computation.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench import openblas_core  # noqa: E402


def tuned_env(threads=None):
    env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE")
    core = openblas_core()
    if core:
        env["OPENBLAS_CORETYPE"] = core
    return env


def entrena(cli, arch, nproc, bucket_mb, steps, tmp, db):
    batch = 128 // nproc
    config = {"name": f"scale-{arch}-{nproc}", "seed": 1,
              "data": {"dataset": "fashion-mnist", "val_fraction": 0, "batch_size": batch, "workers": 1},
              "model": {"arch": arch},
              "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 5e-4},
              "scheduler": {"name": "constant"},
              "train": {"epochs": 1, "max_steps": steps, "log_every": 25, "checkpoint_every": 0},
              "devices": {"type": "cpu", "threads": 0, "bucket_mb": bucket_mb}}
    path = os.path.join(tmp, "scale.json")
    with open(path, "w") as f:
        json.dump(config, f)
    cmd = [cli, "train", "--config", path, "--json", "--db", db] + (["--nproc", str(nproc)] if nproc > 1 else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=tuned_env()).stdout
    events = [json.loads(line) for line in out.strip().splitlines()]
    steps_ev = [e for e in events if e["event"] == "step"][1:]  # the first interval includes warm-up
    end = [e for e in events if e["event"] == "end"][0]
    epoch = [e for e in events if e["event"] == "epoch"][0]
    med = lambda key: statistics.median(key(e) for e in steps_ev)  # noqa: E731
    step = med(lambda e: e["step_seconds"])
    exposed = med(lambda e: e["timing"]["comm"])
    busy = med(lambda e: e.get("comm_busy_seconds") or 0.0)
    return {"samples_per_s": end["samples_per_s"], "epoch_s": epoch["seconds"], "step_ms": step * 1e3,
            "exposed_ms": exposed * 1e3, "busy_ms": busy * 1e3}


def peer(arch, nproc, steps):
    if nproc == 1:
        cmd = ["/usr/bin/python3", os.path.join(HERE, "peer.py"), "--arch", arch, "--steps", str(steps),
               "--threads", "2", "--batch", "128"]
    else:
        cmd = ["/usr/bin/python3", os.path.join(HERE, "peer_ddp.py"), "--nproc", str(nproc), "--arch", arch,
               "--steps", str(steps), "--threads", "1", "--batch", str(128 // nproc)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=tuned_env()).stdout
    return json.loads(out.strip().splitlines()[-1])["samples_per_s"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--arch", nargs="+", default=["mlp", "cnn"])
    a = p.parse_args()
    steps = {"mlp": 0, "cnn": 150}  # mlp: one whole epoch (469 steps of 128); cnn: 150 steps
    peer_steps = {"mlp": 469, "cnn": 150}
    # (label, ranks, bucket MB): DDP's default buckets, and small ones that can start during backward.
    setups = [("1 rank", 1, 25), ("2 ranks, 25 MB buckets", 2, 25), ("2 ranks, 0.1 MB buckets", 2, 0.1)]
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "runs.sqlite")
        for arch in a.arch:
            results = {label: [] for label, _, _ in setups}
            peers = {1: [], 2: []}
            for _ in range(a.runs):  # interleaved, so that the machine's drift hits every setup alike
                for label, nproc, bucket in setups:
                    results[label].append(entrena(a.cli, arch, nproc, bucket, steps[arch], tmp, db))
                for nproc in (1, 2):
                    peers[nproc].append(peer(arch, nproc, peer_steps[arch]))
            print(f"\n{arch}: medians of {a.runs} runs (global batch 128; CPU threads 2 for one rank, 1 per rank for two)")
            print("| setup | samples/s | epoch s | step ms | comm exposed ms | all-reduce window ms | window overlapping backward | exposed share of step |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|")
            base = statistics.median(r["samples_per_s"] for r in results["1 rank"])
            for label, nproc, _ in setups:
                m = {k: statistics.median(r[k] for r in results[label]) for k in results[label][0]}
                hidden = (1 - m["exposed_ms"] / m["busy_ms"]) if m["busy_ms"] > 0 else float("nan")
                print(f"| {label} | {m['samples_per_s']:.0f} ({m['samples_per_s'] / base:.2f}x) | {m['epoch_s']:.2f} | "
                      f"{m['step_ms']:.2f} | {m['exposed_ms']:.3f} | {m['busy_ms']:.3f} | "
                      f"{hidden * 100:.0f}% | {m['exposed_ms'] / m['step_ms'] * 100:.1f}% |")
            p1, p2 = statistics.median(peers[1]), statistics.median(peers[2])
            print(f"| PyTorch, 1 process | {p1:.0f} | | | | | | |")
            print(f"| PyTorch DDP, 2 ranks | {p2:.0f} ({p2 / p1:.2f}x) | | | | | | |")
            e2 = statistics.median(r["samples_per_s"] for r in results["2 ranks, 25 MB buckets"])
            print(f"\nEntrena 2 ranks / PyTorch DDP 2 ranks: {e2 / p2:.2f}x")


if __name__ == "__main__":
    main()
