#!/usr/bin/python3
"""Throughput of Entrena against its peer (bench/peer.py), measured in the same invocation,
same data, same batch, same thread count; several runs each, medians and ratios.

    /usr/bin/python3 bench/bench.py --cli build/release/app/entrena-cli [--runs 5]

The peer runs twice: as a user runs it (the environment as given, PyTorch's default threads) and
tuned (OPENBLAS_CORETYPE for this CPU, OMP_WAIT_POLICY=PASSIVE, the same threads as Entrena).
The ratio that counts is against the tuned peer.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = {"mlp": 1500, "cnn": 120}


def cpu_description():
    """The CPU's model and the vector extensions that decide kernel speed, printed beside every figure."""
    model, flags = "unknown CPU", set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and model == "unknown CPU":
                model = line.split(":", 1)[1].strip()
            elif line.startswith("flags") and not flags:
                flags = set(line.split(":", 1)[1].split())
    shown = [x for x in ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_tile") if x in flags]
    return f"CPU: {model}, {os.cpu_count()} logical CPUs; flags: {' '.join(shown) or 'none of avx2/avx512'}"


def openblas_core():
    flags = open("/proc/cpuinfo").read()
    amd = "AuthenticAMD" in flags
    words = set(flags.split())
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= words:
        return "SkylakeX"
    if {"avx2", "fma"} <= words:
        return "Zen" if amd else "Haswell"
    return None


def entrena(cli, arch, steps, threads, db, tmp):
    # The peer's recipe: SGD with Nesterov momentum, constant rate, batch 128, all 60,000 images.
    config = {"name": f"bench-{arch}", "seed": 1,
              "data": {"dataset": "fashion-mnist", "val_fraction": 0, "batch_size": 128, "workers": 1},
              "model": {"arch": arch},
              "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 5e-4},
              "scheduler": {"name": "constant"},
              "train": {"epochs": 1, "max_steps": steps, "log_every": 50, "checkpoint_every": 0},
              "devices": {"type": "cpu", "threads": threads}}
    path = os.path.join(tmp, f"{arch}.json")
    with open(path, "w") as f:
        json.dump(config, f)
    out = subprocess.run([cli, "train", "--config", path, "--json", "--db", db], check=True, capture_output=True,
                         text=True).stdout
    lines = [json.loads(line) for line in out.strip().splitlines()]
    start, end = lines[0], lines[-1]
    overhead = (end["data_wait_seconds"] + end["logging_seconds"]) / end["train_seconds"]
    return end["samples_per_s"], overhead, start["flops_per_sample"]


def peer(arch, steps, threads, tuned):
    env = dict(os.environ)
    for k in ("ENTRENA_TUNED",):
        env.pop(k, None)
    cmd = ["/usr/bin/python3", os.path.join(HERE, "peer.py"), "--arch", arch, "--steps", str(steps)]
    if tuned:
        core = openblas_core()
        if core:
            env["OPENBLAS_CORETYPE"] = core
        env["OMP_WAIT_POLICY"] = "PASSIVE"
        cmd += ["--threads", str(threads)]
    else:
        env.pop("OPENBLAS_CORETYPE", None)
        env.pop("OMP_WAIT_POLICY", None)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])["samples_per_s"]


def gemm_ceiling(cli):
    out = subprocess.run([cli, "devices", "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)["gemm_gflops"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--arch", nargs="*", default=["mlp", "cnn"])
    p.add_argument("--threads", type=int, default=os.cpu_count())
    a = p.parse_args()
    print(cpu_description())
    print()
    rows = []
    gemm = statistics.median(gemm_ceiling(a.cli) for _ in range(3))
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "bench.sqlite")
        for arch in a.arch:
            steps = STEPS[arch]
            e, pu, pt, over = [], [], [], []
            for r in range(a.runs):  # interleaved, so drifts in machine load hit all three alike
                sps, overhead, flops = entrena(a.cli, arch, steps, a.threads, db, tmp)
                e.append(sps)
                over.append(overhead)
                pu.append(peer(arch, steps, a.threads, tuned=False))
                pt.append(peer(arch, steps, a.threads, tuned=True))
                print(f"{arch} run {r + 1}: entrena {e[-1]:.0f}, peer {pu[-1]:.0f}, tuned peer {pt[-1]:.0f}",
                      file=sys.stderr)
            me, mu, mt = statistics.median(e), statistics.median(pu), statistics.median(pt)
            rows.append((arch, me, mu, mt, statistics.median(over), flops))
    print(f"| model | Entrena samples/s | peer as run | peer tuned | Entrena / peer | Entrena / tuned peer |")
    print("|---|---:|---:|---:|---:|---:|")
    for arch, me, mu, mt, _, _ in rows:
        print(f"| {arch} (batch 128, {a.threads} threads, median of {a.runs}) | {me:,.0f} | {mu:,.0f} | {mt:,.0f} | "
              f"{me / mu:.2f}x | {me / mt:.2f}x |")
    print()
    print(f"GEMM ceiling (fp32 1024x1024, {a.threads} threads, median of 3): {gemm:.1f} GFLOP/s")
    print()
    print("| model | forward MFLOP/sample | Entrena MFU | tuned peer MFU | Entrena time outside compute |")
    print("|---|---:|---:|---:|---:|")
    for arch, me, mu, mt, overhead, flops in rows:
        # A training step costs about three forward passes (forward, and backward's two products).
        mfu = lambda sps: 3 * flops * sps / (gemm * 1e9)
        print(f"| {arch} | {flops / 1e6:.2f} | {mfu(me):.1%} | {mfu(mt):.1%} | {overhead:.2%} of step time |")


if __name__ == "__main__":
    main()
