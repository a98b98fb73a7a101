#!/usr/bin/python3
"""Entrena against the best tuned plain PyTorch script on every kind of model, in one command: the
built-in mlp and cnn on Fashion-MNIST, the built-in resnet on CIFAR-shaped colour images, and a
TorchScript module the user brings (torchvision's resnet18, scripted here), at 1 and 2 threads, fp32.

    /usr/bin/python3 bench/any_model.py --cli build/release/app/entrena-cli [--runs 3] [--threads 1 2]

Each figure is samples/s counted two ways: over the whole run (from the first step, warm-up included)
and in the steady state (Entrena: the median of its logged intervals after the first; the script: after
its first 5 steps). Runs are interleaved (Entrena, then each script variant, again...), medians
reported, the CPU printed first. The script is tuned as bench/bench.py's (OPENBLAS_CORETYPE, passive
OpenMP waits, glibc's mmap threshold, the same threads for OpenBLAS), pre-batched from memory, gradients
set to None, the convolutional models channels-last; for the TorchScript case both the eager torchvision
model and the same scripted file are tried, and the better counts. Entrena's choice of its own paths
(the run's environment, `paths`) is printed beside its figures.

The CIFAR-shaped data are Fashion-MNIST's images padded to 32x32 in three channels, written in
CIFAR-10's binary format (10,000 training images, 1,000 test), so that both sides train real images.
"""
import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench import TUNED_ENV, cpu_description, entrena_env, openblas_core  # noqa: E402

FMNIST = "/usr/share/datasets/fashion-mnist"
# name: (data, batch, steps, Entrena's model section)
CASES = {
    "mlp": ("fmnist", 128, 1500, {"arch": "mlp"}),
    "cnn": ("fmnist", 128, 120, {"arch": "cnn"}),
    "resnet": ("cifar", 128, 40, {"arch": "resnet"}),
    "resnet18-script": ("cifar", 64, 40, None),  # the model section names the scripted file
}


def fmnist_arrays(split="train"):
    import gzip
    prefix = "train" if split == "train" else "t10k"
    with gzip.open(f"{FMNIST}/{prefix}-images-idx3-ubyte.gz") as f:
        x = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 28, 28)
    with gzip.open(f"{FMNIST}/{prefix}-labels-idx1-ubyte.gz") as f:
        y = np.frombuffer(f.read(), np.uint8, offset=8)
    return x, y


def colour(x):
    """28x28 grey to 3x32x32: padded, the three channels different functions of the grey level."""
    p = np.pad(x, ((0, 0), (2, 2), (2, 2)))
    return np.stack([p, p // 2 + 64, 255 - p], axis=1).astype(np.uint8)


def write_cifar(folder):
    x, y = fmnist_arrays("train")
    tx, ty = fmnist_arrays("test")
    x, y, tx, ty = colour(x[:10000]), y[:10000], colour(tx[:1000]), ty[:1000]
    os.makedirs(folder, exist_ok=True)

    def records(images, labels):
        return np.concatenate([labels.reshape(-1, 1), images.reshape(len(images), -1)], axis=1).astype(np.uint8).tobytes()

    for b in range(5):
        with open(os.path.join(folder, f"data_batch_{b + 1}.bin"), "wb") as f:
            f.write(records(x[b * 2000:(b + 1) * 2000], y[b * 2000:(b + 1) * 2000]))
    with open(os.path.join(folder, "test_batch.bin"), "wb") as f:
        f.write(records(tx, ty))
    np.save(os.path.join(folder, "x.npy"), x)
    np.save(os.path.join(folder, "y.npy"), y)


def write_script(path):
    import torch
    import torchvision
    torch.manual_seed(1)
    torch.jit.script(torchvision.models.resnet18(num_classes=10)).save(path)


def entrena(cli, case, threads, tmp):
    data, batch, steps, model = CASES[case]
    model = model or {"arch": "torchscript", "path": os.path.join(tmp, "resnet18.pt")}
    data_section = {"dataset": "fashion-mnist"} if data == "fmnist" else {"dataset": "cifar10",
                                                                           "path": os.path.join(tmp, "cifar")}
    data_section.update({"val_fraction": 0, "batch_size": batch, "workers": 1, "test_limit": 1000})
    config = {"name": f"any-{case}", "seed": 1, "data": data_section, "model": model,
              "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 5e-4},
              "scheduler": {"name": "constant"},
              "train": {"epochs": 1, "max_steps": steps, "log_every": max(5, steps // 8), "checkpoint_every": 0},
              "devices": {"type": "cpu", "threads": threads}}
    path = os.path.join(tmp, f"{case}.json")
    with open(path, "w") as f:
        json.dump(config, f)
    db = os.path.join(tmp, "bench.sqlite")
    out = subprocess.run([cli, "train", "--config", path, "--json", "--db", db], check=True, capture_output=True,
                         text=True, env=entrena_env()).stdout
    events = [json.loads(line) for line in out.strip().splitlines()]
    end = events[-1]
    intervals = [e["samples_per_s"] for e in events if e.get("event") == "step"][1:]
    with sqlite3.connect(db) as c:
        paths = json.loads(c.execute("SELECT json_extract(environment, '$.paths') FROM runs ORDER BY id DESC LIMIT 1")
                           .fetchone()[0] or "{}")
    return end["samples_per_s"], statistics.median(intervals), paths


def peer(case, threads, tmp, variant):
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS")}
    core = openblas_core()
    if core:
        env["OPENBLAS_CORETYPE"] = core
    env.update(TUNED_ENV)
    env["OPENBLAS_NUM_THREADS"] = str(threads)
    out = subprocess.run(["/usr/bin/python3", os.path.abspath(__file__), "--peer", case, "--variant", variant,
                          "--threads", str(threads), "--tmp", tmp], check=True, capture_output=True, text=True,
                         env=env).stdout
    r = json.loads(out.strip().splitlines()[-1])
    return r["whole"], r["steady"]


def peer_main(case, variant, threads, tmp):
    """The plain script: pre-batched from memory, set_to_none, channels-last for convolutions."""
    import torch
    from torch import nn

    import peer as peer_model
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    data, batch, steps, _ = CASES[case]
    if data == "fmnist":
        x, y = fmnist_arrays("train")
        x = torch.tensor(x, dtype=torch.float32).unsqueeze(1) / 255.0
    else:
        x = torch.tensor(np.load(os.path.join(tmp, "cifar", "x.npy")), dtype=torch.float32) / 255.0
        y = np.load(os.path.join(tmp, "cifar", "y.npy"))
    x = (x - x.mean(dim=(0, 2, 3), keepdim=True)) / x.std(dim=(0, 2, 3), keepdim=True)
    y = torch.tensor(y.astype(np.int64))
    if case == "mlp":
        m = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    elif case == "cnn":  # pool before ReLU: the same values, a quarter of the ReLU's work
        m = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(),
                          nn.Conv2d(32, 64, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(), nn.Flatten(),
                          nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
    elif case == "resnet":
        m = peer_model.resnet(3)
    elif variant == "scripted":
        m = torch.jit.load(os.path.join(tmp, "resnet18.pt"))
    else:
        import torchvision
        m = torchvision.models.resnet18(num_classes=10)
    layout = torch.contiguous_format if case == "mlp" else torch.channels_last
    m = m.to(memory_format=layout)
    x = x.contiguous(memory_format=layout)
    opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
    loss_fn = nn.CrossEntropyLoss()
    m.train()
    step, samples, start, steady_start, steady_samples = 0, 0, time.perf_counter(), None, 0
    while step < steps:
        order = torch.randperm(len(x))
        for i in range(0, len(order) - batch + 1, batch):
            idx = order[i:i + batch]
            xb, yb = x[idx].contiguous(memory_format=layout), y[idx]
            if step == 5:
                steady_start, steady_samples = time.perf_counter(), 0
            opt.zero_grad(set_to_none=True)
            loss = loss_fn(m(xb), yb)
            loss.backward()
            opt.step()
            step += 1
            samples += len(xb)
            steady_samples += len(xb)
            if step >= steps:
                break
    now = time.perf_counter()
    print(json.dumps({"whole": samples / (now - start), "steady": steady_samples / (now - steady_start)}))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--case", nargs="*", default=list(CASES))
    p.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    p.add_argument("--peer", help=argparse.SUPPRESS)
    p.add_argument("--variant", default="eager", help=argparse.SUPPRESS)
    p.add_argument("--tmp", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.peer:
        peer_main(a.peer, a.variant, a.threads[0], a.tmp)
        return
    if not a.cli:
        p.error("--cli is required")
    print(cpu_description())
    print()
    med = statistics.median
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        write_cifar(os.path.join(tmp, "cifar"))
        if "resnet18-script" in a.case:
            write_script(os.path.join(tmp, "resnet18.pt"))
        for threads in a.threads:
            for case in a.case:
                variants = ["eager", "scripted"] if case == "resnet18-script" else ["eager"]
                ew, es, pw, ps, chosen = [], [], {v: [] for v in variants}, {v: [] for v in variants}, {}
                for r in range(a.runs):  # interleaved, so drifts in machine load hit all alike
                    whole, steady, chosen = entrena(a.cli, case, threads, tmp)
                    ew.append(whole)
                    es.append(steady)
                    for v in variants:
                        w, s = peer(case, threads, tmp, v)
                        pw[v].append(w)
                        ps[v].append(s)
                    print(f"{case}, {threads} thread(s), run {r + 1}: entrena {whole:.0f} whole / {steady:.0f} steady; "
                          + ", ".join(f"script ({v}) {pw[v][-1]:.0f} / {ps[v][-1]:.0f}" for v in variants),
                          file=sys.stderr)
                best_w = max(med(pw[v]) for v in variants)
                best_s = max(med(ps[v]) for v in variants)
                paths = ", ".join(f"{k} {v['path']}" for k, v in sorted(chosen.items())) or "none apply"
                rows.append((case, threads, med(ew), best_w, med(es), best_s, paths))
    print("| model, threads | Entrena whole run | best script whole run | **ratio, whole run** | Entrena steady | "
          "best script steady | **ratio, steady** | Entrena's own paths (last run) |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for case, threads, ew, pw, es, ps, paths in rows:
        print(f"| {case}, {threads} | {ew:,.0f} | {pw:,.0f} | **{ew / pw:.2f}x** | {es:,.0f} | {ps:,.0f} | "
              f"**{es / ps:.2f}x** | {paths} |")
    print(f"\n(samples/s, fp32, medians of {a.runs} interleaved runs)")


if __name__ == "__main__":
    main()
