#!/usr/bin/python3
"""Time to a test accuracy: Entrena's recipe for the CNN (resources/configs/cnn-fast.json: SGD with
Nesterov momentum and a one-cycle schedule, batch 64, two epochs, channels-last, a tuned process) against the
recipe people most often write (the same CNN, Adam at 1e-3, batch 64; bench/peer.py), in the same
invocation, interleaved, medians of several runs.

    /usr/bin/python3 bench/time_to_accuracy.py --cli build/release/app/entrena-cli [--runs 3]

Both clocks count training only: the peer's stops while it measures the test set after each epoch
(it needs to, to know when it got there); Entrena's recipe is a fixed budget, and counts only if its
final test accuracy reaches the target. The peer runs fully tuned, as bench.py's strongest (every
environment fix, the same threads, --expert).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from bench import TUNED_ENV, cpu_description, openblas_core

HERE = os.path.dirname(os.path.abspath(__file__))
RECIPE = os.path.join(HERE, "..", "resources", "configs", "cnn-fast.json")


def entrena(cli, recipe, threads, db):
    out = subprocess.run([cli, "train", "--config", recipe, "--json", "--db", db,
                          "--set", f"devices.threads={threads}"], check=True, capture_output=True, text=True).stdout
    end = json.loads(out.strip().splitlines()[-1])
    return end["train_seconds"], end["test_accuracy"]


def peer(threads, target, max_epochs):
    # Fully tuned, as bench.py's strongest peer: every environment fix, and --expert (gradients set to
    # None, channels-last).
    env = dict(os.environ, **TUNED_ENV, OPENBLAS_NUM_THREADS=str(threads))
    env.pop("ENTRENA_TUNED", None)
    if core := openblas_core():
        env["OPENBLAS_CORETYPE"] = core
    cmd = ["/usr/bin/python3", os.path.join(HERE, "peer.py"), "--arch", "cnn", "--optimizer", "adam", "--lr", "1e-3",
           "--batch", "64", "--threads", str(threads), "--target", str(target), "--max-epochs", str(max_epochs), "--expert"]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout.splitlines()[-1])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("--recipe", default=RECIPE)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--target", type=float, default=0.91)
    p.add_argument("--max-epochs", type=int, default=10)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    a = p.parse_args()
    print(cpu_description())
    print()
    e, pe, accs, epochs, peer_accs = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "bench.sqlite")
        for r in range(a.runs):
            seconds, acc = entrena(a.cli, a.recipe, a.threads, db)
            accs.append(acc)
            e.append(seconds if acc >= a.target else float("inf"))
            result = peer(a.threads, a.target, a.max_epochs)
            pe.append(result["seconds"] if result["reached"] else float("inf"))
            epochs.append(result["epochs"])
            peer_accs.append(result["accuracies"][-1])
            print(f"run {r + 1}: entrena {seconds:.1f} s (test {acc:.2%}); peer {result['seconds'] or float('inf'):.1f} s "
                  f"({result['epochs']} epochs, test {', '.join(f'{x:.2%}' for x in result['accuracies'])})",
                  file=sys.stderr)
    me, mp = statistics.median(e), statistics.median(pe)
    with open(a.recipe) as f:
        recipe_epochs = json.load(f)["train"]["epochs"]
    print(f"| recipe | time to {a.target:.0%} test accuracy (median of {a.runs}) | epochs | final test accuracy |")
    print("|---|---:|---:|---:|")
    print(f"| Entrena, {os.path.basename(a.recipe)} (SGD Nesterov, one-cycle, batch 64) | {me:.1f} s | {recipe_epochs} | "
          f"{statistics.median(accs):.2%} |")
    print(f"| peer, Adam 1e-3, batch 64 (fully tuned, expert, {a.threads} threads) | {mp:.1f} s | {statistics.median(epochs)} | "
          f"{statistics.median(peer_accs):.2%} |")
    print()
    print(f"Entrena / peer: {me / mp:.2f}x the time" if mp != float('inf') else "the peer did not reach the target")


if __name__ == "__main__":
    main()
