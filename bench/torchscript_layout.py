#!/usr/bin/python3
"""Whether channels-last would pay for a TorchScript module (issue 34), measured before building it.

torchvision's resnet18, scripted, trains on CIFAR-shaped batches (64 x 3 x 32 x 32, SGD with momentum) in
two copies, one laid out NCHW and one channels-last, step for step in turn so that the machine's drift
falls on both; medians after a warm-up, per thread count, the CPU printed first. The tuned environment
of bench.py (TUNED_ENV, the CPU's OpenBLAS kernels) is applied by running itself again.

    /usr/bin/python3 bench/torchscript_layout.py [--steps 40] [--threads 1 2]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench import TUNED_ENV, cpu_description, openblas_core  # noqa: E402

WARM_UP = 8


def measure(threads, steps):
    import torch
    import torchvision
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    layouts = {"nchw": torch.contiguous_format, "channels-last": torch.channels_last}
    parts = {}
    for name, layout in layouts.items():
        model = torch.jit.script(torchvision.models.resnet18(num_classes=10)).to(memory_format=layout)
        x = torch.randn(64, 3, 32, 32).contiguous(memory_format=layout)
        parts[name] = (model, torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9), x)
    y = torch.randint(0, 10, (64,))
    times = {name: [] for name in layouts}
    for _ in range(steps):
        for name, (model, optimizer, x) in parts.items():
            t = time.perf_counter()
            optimizer.zero_grad(set_to_none=True)
            torch.nn.functional.cross_entropy(model(x), y).backward()
            optimizer.step()
            times[name].append(time.perf_counter() - t)
    ms = {name: 1e3 * statistics.median(t[WARM_UP:]) for name, t in times.items()}
    print(f"| {threads} | {ms['nchw']:.1f} | {ms['channels-last']:.1f} | {ms['nchw'] / ms['channels-last']:.2f}x |")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--child", type=int, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        measure(a.child, a.steps)
        return
    print(cpu_description())
    print(f"resnet18 scripted, batch 64, {a.steps} steps of each layout in turn, medians after {WARM_UP}")
    print("| threads | NCHW ms/step | channels-last ms/step | channels-last speed-up |")
    print("|---:|---:|---:|---:|")
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS")}
    env.update(TUNED_ENV)
    core = openblas_core()
    if core:
        env["OPENBLAS_CORETYPE"] = core
    for threads in a.threads:
        env["OPENBLAS_NUM_THREADS"] = str(threads)
        sys.stdout.flush()
        subprocess.run([sys.executable, os.path.abspath(__file__), "--child", str(threads), "--steps", str(a.steps)],
                       check=True, env=env)


if __name__ == "__main__":
    main()
