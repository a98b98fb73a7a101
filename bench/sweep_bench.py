#!/usr/bin/python3
"""A hyper-parameter search, Entrena against Optuna: the same space, model, data and CPU budget.

    /usr/bin/python3 bench/sweep_bench.py --cli build/release/app/entrena-cli [--seeds 3] [--trials 16]
        [--target 0.84] [--epochs 4]

The work: an MLP (784-64-10) on 10,000 Fashion-MNIST training images (20% held out for validation),
SGD with Nesterov momentum, searching optimizer.lr (log-uniform 1e-4 … 0.5), optimizer.momentum
(uniform 0.5 … 0.99) and the batch size (32, 64, 128), `--trials` trials of up to `--epochs` epochs,
two at a time on the machine's two cores.

- Entrena: `entrena-cli sweep --method asha` (and `--method tpe`), `--parallel 2` (one thread each).
- The peer: Optuna 3.1 (Debian's python3-optuna), its TPE sampler with its median pruner, driving a
  plain PyTorch training loop over pre-batched tensors (the faster way to feed an MLP from memory),
  `n_jobs=2` with one intra-op thread each.

Reported, medians over `--seeds` seeds (each seed: Entrena then Optuna): the wall time until some trial
first reaches `--target` validation accuracy, and the best validation accuracy either had found when the
faster of the two finished. Both run as the processes a user starts: `entrena-cli sweep …` and
`python3 <the Optuna script>`, each timed from its launch. Optuna's time is also given from its study's
start (torch and optuna imported, the data in memory): the strictest clock, which leaves out what its
user waits for and counts all of Entrena's start. The CPU's model and flags are printed.
"""
import argparse
import json
import math
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import optuna
import torch
import torch.nn.functional as F
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import cpu_description  # noqa: E402

FMNIST = "/usr/share/datasets/fashion-mnist"
SPACE = {"optimizer.lr": {"log_uniform": [1e-4, 0.5]}, "optimizer.momentum": {"uniform": [0.5, 0.99]},
         "data.batch_size": {"choice": [32, 64, 128]}}


def load_fmnist(n):
    import gzip
    # Only the first n images are decompressed, as Entrena reads them.
    with gzip.open(os.path.join(FMNIST, "train-images-idx3-ubyte.gz")) as f:
        x = np.frombuffer(f.read(16 + n * 784), np.uint8, offset=16).reshape(-1, 1, 28, 28)
    with gzip.open(os.path.join(FMNIST, "train-labels-idx1-ubyte.gz")) as f:
        y = np.frombuffer(f.read(8 + n), np.uint8, offset=8)
    return torch.tensor(x, dtype=torch.float32).div_(255), torch.tensor(y, dtype=torch.int64)


def entrena_sweep(cli, method, seed, trials, epochs, tmp):
    base = {"name": f"bench-{method}", "seed": seed,
            "data": {"dataset": "fashion-mnist", "train_limit": 10000, "test_limit": 1, "val_fraction": 0.2,
                     "batch_size": 64, "workers": 0},
            "model": {"arch": "mlp", "hidden": [64]},
            "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 5e-4},
            "scheduler": {"name": "constant"},
            "train": {"epochs": epochs, "log_every": 1000, "checkpoint_every": 1}}
    cfg, space, db = (os.path.join(tmp, f"{method}-{seed}.{ext}") for ext in ("json", "space.json", "sqlite"))
    json.dump(base, open(cfg, "w"))
    json.dump(SPACE, open(space, "w"))
    start = time.time()
    extra = ["--min-epochs", "1", "--reduction", "3"] if method == "asha" else []
    subprocess.run([cli, "sweep", "--config", cfg, "--space", space, "--method", method, "--trials", str(trials),
                    "--parallel", "2", "--db", db, "--json"] + extra, check=True, capture_output=True)
    end = time.time()
    con = sqlite3.connect(db)
    points = [(w - start, v) for w, v in con.execute("SELECT wall_time, value FROM metrics WHERE key='val_accuracy'")]
    return points, end - start


def optuna_process(seed, trials, epochs):
    """The Optuna script as its own process, timed from its launch like `entrena-cli sweep`. Returns the
    points from launch, the points from the study's start, and the whole time from launch."""
    launch = time.time()
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--optuna-peer", str(seed), "--trials", str(trials),
                          "--epochs", str(epochs)], check=True, capture_output=True, text=True).stdout
    end = time.time()
    r = json.loads(out.strip().splitlines()[-1])
    return ([(t - launch, v) for t, v in r["points"]], end - launch), ([(t - r["start"], v) for t, v in r["points"]],
                                                                       r["end"] - r["start"])


def optuna_peer(seed, trials, epochs):
    """Run by optuna_process: the whole script a user would write (imports above, data, study)."""
    torch.set_num_threads(1)
    points, start, end = optuna_sweep(seed, trials, epochs, load_fmnist(10000))
    print(json.dumps({"points": points, "start": start, "end": end}))


def optuna_sweep(seed, trials, epochs, data):
    x, y = data
    n = x.shape[0]
    g = torch.Generator().manual_seed(seed)
    order = torch.randperm(n, generator=g)
    val, train = order[: n // 5], order[n // 5:]
    xt, yt, xv, yv = x[train], y[train], x[val], y[val]
    mean, std = xt.mean(), xt.std()
    xt, xv = (xt - mean) / std, (xv - mean) / std
    points, lock = [], threading.Lock()
    start = time.time()

    def objective(trial):
        lr = trial.suggest_float("lr", 1e-4, 0.5, log=True)
        momentum = trial.suggest_float("momentum", 0.5, 0.99)
        batch = trial.suggest_categorical("batch", [32, 64, 128])
        torch.manual_seed(seed * 1000 + trial.number)
        model = nn.Sequential(nn.Flatten(), nn.Linear(784, 64), nn.ReLU(), nn.Linear(64, 10))
        opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=momentum, nesterov=True, weight_decay=5e-4)
        best = 0.0
        for epoch in range(epochs):
            perm = torch.randperm(xt.shape[0])
            batches = [(xt[perm[i:i + batch]], yt[perm[i:i + batch]]) for i in range(0, xt.shape[0], batch)]
            for bx, by in batches:
                opt.zero_grad()
                F.cross_entropy(model(bx), by).backward()
                opt.step()
            with torch.no_grad():
                acc = (model(xv).argmax(1) == yv).float().mean().item()
            if not math.isfinite(acc):
                acc = 0.0
            best = max(best, acc)
            with lock:
                points.append((time.time(), acc))
            trial.report(acc, epoch)
            if trial.should_prune():
                raise optuna.TrialPruned()
        return best

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed),
                                pruner=optuna.pruners.MedianPruner())
    study.optimize(objective, n_trials=trials, n_jobs=2)
    return points, start, time.time()


def time_to(points, target):
    hits = [t for t, v in points if v >= target]
    return min(hits) if hits else math.inf


def best_by(points, t):
    seen = [v for w, v in points if w <= t]
    return max(seen) if seen else 0.0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cli")
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--trials", type=int, default=16)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--target", type=float, default=0.84)
    p.add_argument("--optuna-peer", type=int, metavar="SEED", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.optuna_peer is not None:
        return optuna_peer(a.optuna_peer, a.trials, a.epochs)
    if not a.cli:
        p.error("--cli ENTRENA_CLI is needed")
    names = ("asha", "tpe", "optuna", "optuna-study")
    rows = {name: [] for name in names}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, a.seeds + 1):
            runs = {m: entrena_sweep(a.cli, m, seed, a.trials, a.epochs, tmp) for m in ("asha", "tpe")}
            runs["optuna"], runs["optuna-study"] = optuna_process(seed, a.trials, a.epochs)
            shortest = min(total for _, total in runs.values())
            for name, (points, total) in runs.items():
                rows[name].append((time_to(points, a.target), best_by(points, shortest), total))
                print(f"seed {seed} {name}: to {a.target:.0%} {rows[name][-1][0]:.1f} s, best by {shortest:.1f} s "
                      f"{rows[name][-1][1]:.4f}, whole sweep {total:.1f} s", file=sys.stderr)
    med = statistics.median
    print(cpu_description())
    print(f"{a.trials} trials of up to {a.epochs} epochs, 2 at a time, target {a.target:.0%} validation accuracy, "
          f"medians over {a.seeds} seeds (a seed that never reached it counts as infinitely slow); "
          f"Optuna {optuna.__version__}, torch {torch.__version__}")
    print()
    print("| search, clock | time to target | vs Optuna from launch | vs Optuna's study | seeds that reached it | "
          "best accuracy at the shortest sweep's end | whole sweep |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    peer, study = (med(r[0] for r in rows[n]) for n in ("optuna", "optuna-study"))
    labels = {"asha": "Entrena asha, from launch", "tpe": "Entrena tpe, from launch",
              "optuna": "Optuna TPE + median pruner, from launch",
              "optuna-study": "Optuna TPE + median pruner, from its study's start"}
    for name in names:
        t = med(r[0] for r in rows[name])
        reached = sum(math.isfinite(r[0]) for r in rows[name])
        shown = (f"{t:.1f} s", f"{t / peer:.2f}x", f"{t / study:.2f}x") if math.isfinite(t) else ("not reached", "—", "—")
        print(f"| {labels[name]} | {' | '.join(shown)} | {reached} of {len(rows[name])} | "
              f"{med(r[1] for r in rows[name]):.2%} | {med(r[2] for r in rows[name]):.1f} s |")


if __name__ == "__main__":
    main()
