#!/usr/bin/python3
"""Throughput of Entrena against its peer (bench/peer.py), measured in the same invocation,
same data, same batch, same thread count; several runs each, medians and ratios.

    /usr/bin/python3 bench/bench.py --cli build/release/app/entrena-cli [--runs 5]

The peer runs twice: as a user runs it (the environment as given, PyTorch's default threads) and
tuned (OPENBLAS_CORETYPE for this CPU, OMP_WAIT_POLICY=PASSIVE, the same threads as Entrena, OpenBLAS's
included), fed by a DataLoader or pre-batched, and pre-batched with --expert (gradients set to None, the
CNN channels-last).
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


def entrena_env():
    """Entrena's environment: as a user's, without the OpenBLAS settings a shell may carry (a machine that
    exports OPENBLAS_CORETYPE=Haswell on an AVX-512 CPU would hold Entrena to AVX2 kernels while the tuned
    peer gets its CPU's; Entrena picks its own where none is given, as the peer's tuning does)."""
    return {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "ENTRENA_TUNED")}


def entrena(cli, arch, steps, threads, db, tmp, precision="fp32"):
    # The peer's recipe: SGD with Nesterov momentum, constant rate, batch 128, all 60,000 images.
    config = {"name": f"bench-{arch}", "seed": 1,
              "data": {"dataset": "fashion-mnist", "val_fraction": 0, "batch_size": 128, "workers": 1},
              "model": {"arch": arch},
              "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 5e-4},
              "scheduler": {"name": "constant"},
              "train": {"epochs": 1, "max_steps": steps, "log_every": 50, "checkpoint_every": 0, "precision": precision},
              "devices": {"type": "cpu", "threads": threads}}
    path = os.path.join(tmp, f"{arch}.json")
    with open(path, "w") as f:
        json.dump(config, f)
    out = subprocess.run([cli, "train", "--config", path, "--json", "--db", db], check=True, capture_output=True,
                         text=True, env=entrena_env()).stdout
    lines = [json.loads(line) for line in out.strip().splitlines()]
    start, end = lines[0], lines[-1]
    overhead = (end["data_wait_seconds"] + end["logging_seconds"]) / end["train_seconds"]
    # The GEMM ceiling the run measured at its thread count, from its last step's utilisation.
    step = [e for e in lines if e.get("event") == "step" and e.get("mfu")][-1]
    ceiling = 3 * start["flops_per_sample"] * step["samples_per_s"] / step["mfu"]
    return end["samples_per_s"], overhead, start["flops_per_sample"], ceiling


# Every environment fix a plain script can have (issue 19): the CPU's OpenBLAS kernels, passive OpenMP
# threads, OpenBLAS's idle threads asleep at once, and large blocks kept in the heap instead of mapped and
# page-faulted afresh every step (glibc's dynamic mmap threshold). Entrena sets the same for itself.
TUNED_ENV = {"OMP_WAIT_POLICY": "PASSIVE", "OPENBLAS_THREAD_TIMEOUT": "4",
             "MALLOC_MMAP_THRESHOLD_": "268435456", "MALLOC_TRIM_THRESHOLD_": "536870912"}


def peer(arch, steps, threads, tuned, feed="loader", expert=False, precision="fp32"):
    env = dict(os.environ)
    for k in ("ENTRENA_TUNED", "OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", *TUNED_ENV):
        env.pop(k, None)
    cmd = ["/usr/bin/python3", os.path.join(HERE, "peer.py"), "--arch", arch, "--steps", str(steps), "--feed", feed,
           "--precision", precision]
    if tuned:
        core = openblas_core()
        if core:
            env["OPENBLAS_CORETYPE"] = core
        env.update(TUNED_ENV)
        # torch.set_num_threads does not reach OpenBLAS's own pool; Entrena bounds both.
        env["OPENBLAS_NUM_THREADS"] = str(threads)
        cmd += ["--threads", str(threads)]
    if expert:
        cmd.append("--expert")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])["samples_per_s"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--arch", nargs="*", default=["mlp", "cnn"])
    p.add_argument("--threads", type=int, nargs="*", default=[1, os.cpu_count()])
    p.add_argument("--precision", choices=["fp32", "bf16"], default="fp32",
                   help="bf16: both sides under autocast (Entrena's train.precision bf16, the peer's torch.autocast)")
    a = p.parse_args()
    print(cpu_description())
    print()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "bench.sqlite")
        for threads in a.threads:
            for arch in a.arch:
                steps = STEPS[arch]
                e, typical, loader, batched, expert, over, ceilings = [], [], [], [], [], [], []
                for r in range(a.runs):  # interleaved, so drifts in machine load hit all alike
                    sps, overhead, flops, ceiling = entrena(a.cli, arch, steps, threads, db, tmp, a.precision)
                    e.append(sps)
                    ceilings.append(ceiling)
                    over.append(overhead)
                    typical.append(peer(arch, steps, threads, tuned=False, precision=a.precision))
                    loader.append(peer(arch, steps, threads, tuned=True, feed="loader", precision=a.precision))
                    batched.append(peer(arch, steps, threads, tuned=True, feed="prebatched", precision=a.precision))
                    expert.append(peer(arch, steps, threads, tuned=True, feed="prebatched", expert=True,
                                       precision=a.precision))
                    print(f"{arch}, {threads} thread(s), run {r + 1}: entrena {e[-1]:.0f}, typical {typical[-1]:.0f}, "
                          f"tuned DataLoader {loader[-1]:.0f}, tuned pre-batched {batched[-1]:.0f}, "
                          f"expert {expert[-1]:.0f}", file=sys.stderr)
                med = statistics.median
                rows.append((arch, threads, med(e), med(typical), med(loader), med(batched), med(expert), med(over),
                             flops, med(ceilings)))
    print("| model, threads | Entrena samples/s | typical script | tuned, DataLoader | tuned, pre-batched | "
          "tuned, pre-batched, expert | Entrena / typical | **Entrena / best tuned** |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for arch, threads, me, mt, ml, mb, mx, _, _, _ in rows:
        best = max(ml, mb, mx)
        print(f"| {arch}, {threads} | {me:,.0f} | {mt:,.0f} | {ml:,.0f} | {mb:,.0f} | {mx:,.0f} | {me / mt:.2f}x | "
              f"**{me / best:.2f}x** |")
    print()
    print("| model, threads | GEMM ceiling GFLOP/s | forward MFLOP/sample | Entrena MFU | best tuned peer MFU | "
          "Entrena time outside compute |")
    print("|---|---:|---:|---:|---:|---:|")
    for arch, threads, me, mt, ml, mb, mx, overhead, flops, ceiling in rows:
        # A training step costs about three forward passes (forward, and backward's two products).
        mfu = lambda sps: 3 * flops * sps / ceiling
        print(f"| {arch}, {threads} | {ceiling / 1e9:.1f} | {flops / 1e6:.2f} | {mfu(me):.1%} | "
              f"{mfu(max(ml, mb, mx)):.1%} | {overhead:.2%} of step time |")
    print(f"\n(precision {a.precision}, both sides; medians of {a.runs} interleaved runs; MFU: 3 x forward FLOPs x "
          f"samples/s over the measured {a.precision} GEMM rate at that thread count)")


if __name__ == "__main__":
    main()
