#!/usr/bin/python3
"""Time to a test accuracy: Entrena's recipe for the CNN (resources/configs/cnn-fast.json: SGD with
Nesterov momentum and a one-cycle schedule, batch 64, two epochs, channels-last, precision `auto`, a tuned
process) against the recipe people most often write (the same CNN, Adam at 1e-3, batch 64; bench/peer.py),
in the same invocation, interleaved, medians of several runs. Each side runs twice: in fp32, and in bf16
(Entrena's `auto` where the CPU multiplies bf16 natively; the peer under torch.autocast with bf16), so
the same-precision ratios are there beside the recipe's.

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

from bench import TUNED_ENV, cpu_description, entrena_env, openblas_core

HERE = os.path.dirname(os.path.abspath(__file__))
RECIPE = os.path.join(HERE, "..", "resources", "configs", "cnn-fast.json")


def entrena(cli, recipe, threads, db, precision):
    out = subprocess.run([cli, "train", "--config", recipe, "--json", "--db", db, "--set", f"devices.threads={threads}",
                          "--set", f"train.precision={precision}"], check=True, capture_output=True, text=True,
                         env=entrena_env()).stdout
    lines = out.strip().splitlines()
    start, end = json.loads(lines[0]), json.loads(lines[-1])
    return end["train_seconds"], end["test_accuracy"], start.get("precision", precision)


def peer(arch, threads, target, max_epochs, precision):
    # Fully tuned, as bench.py's strongest peer: every environment fix, and --expert (gradients set to
    # None, channels-last).
    env = dict(os.environ, **TUNED_ENV, OPENBLAS_NUM_THREADS=str(threads))
    env.pop("ENTRENA_TUNED", None)
    if core := openblas_core():
        env["OPENBLAS_CORETYPE"] = core
    cmd = ["/usr/bin/python3", os.path.join(HERE, "peer.py"), "--arch", arch, "--optimizer", "adam", "--lr", "1e-3",
           "--batch", "64", "--threads", str(threads), "--target", str(target), "--max-epochs", str(max_epochs), "--expert",
           "--precision", precision]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout.splitlines()[-1])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--cli", required=True)
    p.add_argument("--recipe", default=RECIPE,
                   help="Entrena's configuration; its model.arch is the peer's (cnn or resnet). For the resnet: "
                        "bench/recipes/resnet-fast.json")
    p.add_argument("--precisions", nargs="*", default=["fp32", "auto"], help="Entrena's; the peer's follow (auto: bf16)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--target", type=float, default=0.91)
    p.add_argument("--max-epochs", type=int, default=10)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    a = p.parse_args()
    if "fp32" not in a.precisions:
        p.error("--precisions must include fp32: the ratio is against the peer's fp32 recipe")
    print(cpu_description())
    print()
    inf = float("inf")
    with open(a.recipe) as f:
        arch = json.load(f)["model"]["arch"]
    keys = [("entrena", p) for p in a.precisions] + [("peer", "bf16" if p == "auto" else p) for p in a.precisions]
    rows = {key: [] for key in keys}
    used = "auto"
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "bench.sqlite")
        for r in range(a.runs):
            for (who, precision), results in rows.items():  # interleaved: every variant once per round
                if who == "entrena":
                    seconds, acc, trained = entrena(a.cli, a.recipe, a.threads, db, precision)
                    if precision == "auto":
                        used = trained
                    results.append((seconds if acc >= a.target else inf, a_epochs(a.recipe), acc))
                    print(f"run {r + 1}: entrena {precision} ({trained}) {seconds:.1f} s, test {acc:.2%}", file=sys.stderr)
                else:
                    p = peer(arch, a.threads, a.target, a.max_epochs, precision)
                    results.append((p["seconds"] if p["reached"] else inf, p["epochs"], p["accuracies"][-1]))
                    print(f"run {r + 1}: peer {precision} {p['seconds'] or inf:.1f} s, {p['epochs']} epochs, test "
                          f"{', '.join(f'{x:.2%}' for x in p['accuracies'])}", file=sys.stderr)
    med = statistics.median
    typical = med(x[0] for x in rows[("peer", "fp32")])
    print(f"| recipe | precision | time to {a.target:.0%} test accuracy (median of {a.runs}) | vs the peer's typical "
          f"recipe (fp32) | epochs | final test accuracy |")
    print("|---|---|---:|---:|---:|---:|")
    labels = {"entrena": f"Entrena, {os.path.basename(a.recipe)} (SGD Nesterov, one-cycle)",
              "peer": f"peer, the same {arch}, Adam 1e-3, batch 64 (fully tuned, expert, {a.threads} threads)"}
    for (who, precision), results in rows.items():
        t = med(x[0] for x in results)
        shown = precision if precision != "auto" else f"auto ({used})"
        if who == "peer" and precision == "bf16":
            shown = "bf16 (torch.autocast)"
        print(f"| {labels[who]} | {shown} | {t:.1f} s | {t / typical:.2f}x | {med(x[1] for x in results)} | "
              f"{med(x[2] for x in results):.2%} |")
    print()
    if typical == inf:
        print("The peer's typical recipe did not reach the target: no ratio.")
        return
    fp32 = med(x[0] for x in rows[("entrena", "fp32")]) / typical
    if used == "bf16" and ("peer", "bf16") in rows:
        same = med(x[0] for x in rows[("entrena", "auto")]) / med(x[0] for x in rows[("peer", "bf16")])
        print(f"At the same precision: fp32 {fp32:.2f}x, bf16 {same:.2f}x (against the peer under torch.autocast).")
    else:
        print(f"At the same precision: fp32 {fp32:.2f}x (auto trained in {used} on this CPU: no native bf16, so no "
              f"bf16 pair).")


def a_epochs(recipe):
    with open(recipe) as f:
        return json.load(f)["train"]["epochs"]


if __name__ == "__main__":
    main()
