#!/usr/bin/python3
"""Issue 31's two measured claims: balanced data on a real imbalanced table, and cross-validation's folds
trained side by side.

    /usr/bin/python3 bench/cv_balance.py --cli build/release/app/entrena-cli [--seeds 3] [--folds 5]

1. Balance. Fashion-MNIST as a table (14×14 pixels averaged from 28×28: 196 numeric columns), the first
   6,000 training images with only one shirt in ten kept (class 6: ~60 of ~5,460 rows), tested on the
   first 2,000 test images (balanced). The default table model (`mlp` 256-128), Adam lr 0.002, 6 epochs,
   batch 64, trained with `data.balance` none, weights and sampler at the same budget; per seed, the
   shirt class's test recall and the macro-averaged recall from the run's `end` event. Medians over seeds.
2. Cross-validation. `entrena-cli cv --folds K` of the same configuration on balanced tables (the first
   N images, all classes; --cv-rows), with `--parallel 1` (folds one after another, each on both cores)
   and `--parallel 2` (two at a time, one core each), timed from launch to exit, and a second peer: the
   folds run by hand, `entrena-cli train` once per fold with one thread each. The ratios, each fold's
   epoch time in both modes (from the store), and a check that the reported mean equals the mean of the
   fold runs' stored best validation accuracy. Medians over seeds (each seed: the three in turn).

The CPU's model and flags are printed beside the figures.
"""
import argparse
import gzip
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import cpu_description  # noqa: E402

FMNIST = "/usr/share/datasets/fashion-mnist"


def read_idx(stem, n):
    with gzip.open(os.path.join(FMNIST, stem + "-images-idx3-ubyte.gz")) as f:
        x = np.frombuffer(f.read(16 + n * 784), np.uint8, offset=16).reshape(-1, 28, 28).astype(np.float32)
    with gzip.open(os.path.join(FMNIST, stem + "-labels-idx1-ubyte.gz")) as f:
        y = np.frombuffer(f.read(8 + n), np.uint8, offset=8)
    return x.reshape(-1, 14, 2, 14, 2).mean(axis=(2, 4)).round().reshape(-1, 196), y


def write_csv(path, x, y, thin_shirts):
    shirts = 0
    with open(path, "w") as f:
        f.write(",".join(f"p{c}" for c in range(196)) + ",label\n")
        for row, label in zip(x, y):
            if thin_shirts and label == 6:
                shirts += 1
                if shirts % 10 != 1:
                    continue
            f.write(",".join(str(int(v)) for v in row) + f",{label}\n")


def config(train, test, seed, balance):
    return {"name": f"fm-table-{balance}", "seed": seed,
            "data": {"dataset": "csv", "path": train, "test_path": test, "batch_size": 64, "balance": balance},
            "model": {"arch": "mlp"}, "optimizer": {"name": "adam", "lr": 0.002, "weight_decay": 0},
            "scheduler": {"name": "constant"}, "train": {"epochs": 6}}


def train(cli, cfg, tmp):
    path = os.path.join(tmp, "c.json")
    with open(path, "w") as f:
        json.dump(cfg, f)
    out = subprocess.run([cli, "train", "--config", path, "--db", os.path.join(tmp, "b.sqlite"), "--json"],
                         capture_output=True, text=True, check=True).stdout
    end = [json.loads(l) for l in out.splitlines() if '"event":"end"' in l.replace(" ", "")][-1]
    per_class = end["per_class"]
    return per_class[6]["recall"], statistics.fmean(c["recall"] for c in per_class), end["test_accuracy"]


def cross_validate(cli, cfg, folds, parallel, tmp):
    path = os.path.join(tmp, "cv.json")
    with open(path, "w") as f:
        json.dump(cfg, f)
    db = os.path.join(tmp, f"cv-{parallel}-{time.monotonic_ns()}.sqlite")
    start = time.perf_counter()
    out = subprocess.run([cli, "cv", "--config", path, "--folds", str(folds), "--parallel", str(parallel), "--db", db,
                          "--json"], capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - start
    cv = [json.loads(l) for l in out.splitlines() if '"cv_end"' in l][-1]["cv"]
    stored = [r[0] for r in sqlite3.connect(db).execute("SELECT best_val_accuracy FROM runs WHERE experiment IS NOT NULL")]
    mean = cv["figures"]["best_val_accuracy"]["mean"]
    assert len(stored) == folds and abs(mean - statistics.fmean(stored)) < 1e-9, (mean, stored)
    # A fold's epoch as it trained: on every core (--parallel 1) or on its share (--parallel 2).
    epoch = statistics.median(r[0] for r in sqlite3.connect(db).execute(
        "SELECT value FROM metrics WHERE key = 'epoch_seconds'"))
    return seconds, mean, cv["figures"]["best_val_accuracy"]["sd"], epoch


def folds_one_by_one(cli, cfg, folds, threads, tmp):
    """The folds as a person would run them by hand: `entrena-cli train` once per fold, one after
    another, each with `threads` threads (the best count for this model on this CPU, measured)."""
    path = os.path.join(tmp, "one-by-one.json")
    with open(path, "w") as f:
        json.dump(cfg, f)
    db = os.path.join(tmp, f"one-{time.monotonic_ns()}.sqlite")
    start = time.perf_counter()
    for k in range(folds):
        subprocess.run([cli, "train", "--config", path, "--set", f"data.folds={folds}", "--set", f"data.fold={k}",
                        "--set", f"devices.threads={threads}", "--db", db, "--json"], capture_output=True, check=True)
    return time.perf_counter() - start


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cli", required=True)
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--cv-rows", type=int, nargs="+", default=[6000, 600],
                   help="the tables cross-validated: their first N rows")
    p.add_argument("--cv-epochs", type=int, default=3)
    p.add_argument("--skip-balance", action="store_true")
    a = p.parse_args()
    print(cpu_description())
    with tempfile.TemporaryDirectory() as tmp:
        x, y = read_idx("train", max([6000] + a.cv_rows))
        tx, ty = read_idx("t10k", 2000)
        thin, whole, test = (os.path.join(tmp, n) for n in ("thin.csv", "whole.csv", "test.csv"))
        write_csv(thin, x[:6000], y[:6000], True)
        write_csv(whole, x[:6000], y[:6000], False)
        write_csv(test, tx, ty, False)

        if not a.skip_balance:
            print("\nBalance: Fashion-MNIST as a 196-column table, one shirt in ten kept; test recall, medians over "
                  f"{a.seeds} seed(s)")
            rows = {}
            for balance in ("none", "weights", "sampler"):
                runs = [train(a.cli, config(thin, test, seed, balance), tmp) for seed in range(1, a.seeds + 1)]
                rows[balance] = [statistics.median(r[i] for r in runs) for i in range(3)]
            print(f"{'data.balance':<14}{'shirt recall':>14}{'macro recall':>14}{'test accuracy':>15}")
            for balance, (shirt, macro, acc) in rows.items():
                print(f"{balance:<14}{shirt:>14.3f}{macro:>14.3f}{acc:>15.3f}")

        for n in a.cv_rows:
            table = os.path.join(tmp, f"first{n}.csv")
            write_csv(table, x[:n], y[:n], False)
            print(f"\nCross-validation: {a.folds} folds of the default MLP on the first {n:,} rows, {a.cv_epochs} epochs, "
                  f"medians over {a.seeds} seed(s)")
            one, two, single = [], [], []
            for seed in range(1, a.seeds + 1):
                cfg = config(table, test, seed, "none")
                cfg["train"]["epochs"] = a.cv_epochs
                one.append(cross_validate(a.cli, cfg, a.folds, 1, tmp))
                two.append(cross_validate(a.cli, cfg, a.folds, 2, tmp))
                single.append(folds_one_by_one(a.cli, cfg, a.folds, 1, tmp))
            s1, s2 = statistics.median(r[0] for r in one), statistics.median(r[0] for r in two)
            e1, e2 = statistics.median(r[3] for r in one), statistics.median(r[3] for r in two)
            s0 = statistics.median(single)
            print(f"--parallel 1: {s1:7.2f} s   --parallel 2: {s2:7.2f} s   ratio {s2 / s1:.2f}x")
            print(f"`train` once per fold, one after another, 1 thread each: {s0:7.2f} s   "
                  f"--parallel 2 against it: {s2 / s0:.2f}x")
            print(f"a fold's epoch: {e1 * 1000:.0f} ms on {os.cpu_count()} threads (--parallel 1), "
                  f"{e2 * 1000:.0f} ms on its share (--parallel 2)")
            print("mean ± sd of best validation accuracy (parallel 2): " +
                  ", ".join(f"{m:.4f} ± {sd:.4f}" for _, m, sd, _ in two) + " (each equal to its stored runs' mean)")


if __name__ == "__main__":
    main()
