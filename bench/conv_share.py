#!/usr/bin/python3
"""How much of the best plain script's training step is convolutions, for the resnets of issue 34: the
built-in resnet ([16, 32, 64], batch 128) and torchvision's resnet18 (batch 64), CIFAR-shaped 3x32x32,
channels-last, gradients set to None, SGD with Nesterov momentum, fp32. Everything that is not a
convolution is what an engine that calls the same convolutions can make faster, so 1 / share is the
most any such engine can lead the script by.

    /usr/bin/python3 bench/conv_share.py --threads 1 2

PyTorch's profiler charges each op its own CPU time (self time); its per-op overhead inflates the many
small ops, so the share of convolutions is, if anything, understated.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def categorise(name):
    if "conv" in name:
        return "convolutions"
    if "batch_norm" in name:
        return "batch norm"
    if "threshold" in name or "relu" in name:
        return "ReLU"
    if name in ("aten::add", "aten::add_"):
        return "additions (residual, gradient sums, SGD)"
    return "the rest"


def measure(case, threads):
    import torch
    from torch import nn
    from torch.profiler import ProfilerActivity, profile

    sys.path.insert(0, HERE)
    import peer as peer_model
    import torchvision

    torch.set_num_threads(threads)
    torch.manual_seed(0)
    m, batch = (peer_model.resnet(3), 128) if case == "resnet" else (torchvision.models.resnet18(num_classes=10), 64)
    m = m.to(memory_format=torch.channels_last)
    opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
    x = torch.randn(batch, 3, 32, 32).contiguous(memory_format=torch.channels_last)
    y = torch.randint(0, 10, (batch,))

    def step():
        opt.zero_grad(set_to_none=True)
        nn.functional.cross_entropy(m(x), y).backward()
        opt.step()

    for _ in range(5):
        step()
    times = []
    for _ in range(15):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(10):
            step()
    shares, total = {}, 0.0
    for e in prof.key_averages():
        total += e.self_cpu_time_total
        c = categorise(e.key)
        shares[c] = shares.get(c, 0.0) + e.self_cpu_time_total
    conv = shares.get("convolutions", 0.0) / total
    rest = ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in sorted(shares.items(), key=lambda kv: -kv[1]) if k != "convolutions")
    print(f"| {case}, {threads} | {statistics.median(times) * 1e3:.1f} | **{100 * conv:.0f}%** | {rest} | {1 / conv:.2f}x |", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--case", choices=["resnet", "resnet18"], help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.case:
        measure(a.case, a.threads[0])
        return
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown CPU")
    flags = next((l.split(":", 1)[1].split() for l in open("/proc/cpuinfo") if l.startswith("flags")), [])
    shown = " ".join(f for f in ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "amx_tile") if f in flags)
    print(f"CPU: {cpu}, {os.cpu_count()} logical CPUs; flags: {shown}")
    print("| model, threads | step ms (no profiler) | convolutions | the rest of the step | most any engine can lead by |")
    print("|---|---:|---:|---|---:|")
    # Each in a process of its own, with the tuned script's environment.
    env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE", MALLOC_MMAP_THRESHOLD_="10000000000",
               MALLOC_TRIM_THRESHOLD_="10000000000")
    for threads in a.threads:
        for case in ("resnet", "resnet18"):
            subprocess.run([sys.executable, __file__, "--case", case, "--threads", str(threads)], env=env, check=True)


if __name__ == "__main__":
    main()
