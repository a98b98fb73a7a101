#!/usr/bin/python3
"""Two builds of entrena-cli on the same work, interleaved (A, B, A, B, …), medians: whether a change
made training slower. The work is bench.py's (Fashion-MNIST, batch 128, SGD, MLP and CNN).

    /usr/bin/python3 bench/ab.py --a OLD/entrena-cli --b NEW/entrena-cli --runs 5
    /usr/bin/python3 bench/ab.py --a build/release/app/entrena-cli --a-env ENTRENA_FUSED=0 \
                                 --b build/release/app/entrena-cli --runs 5    # hand-written paths off / on
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import STEPS, cpu_description, entrena  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--a", required=True, help="entrena-cli before the change")
    p.add_argument("--b", required=True, help="entrena-cli after it")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--arch", nargs="*", default=["mlp", "cnn"])
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--a-env", nargs="*", default=[], metavar="NAME=VALUE", help="environment for A's runs only")
    p.add_argument("--b-env", nargs="*", default=[], metavar="NAME=VALUE", help="environment for B's runs only")
    a = p.parse_args()
    extra = {w: dict(kv.split("=", 1) for kv in getattr(a, f"{w}_env")) for w in ("a", "b")}
    base = dict(os.environ)
    print(cpu_description())
    for w in ("a", "b"):
        if extra[w]:
            print(f"{w.upper()} with " + " ".join(f"{k}={v}" for k, v in extra[w].items()))
    print(f"| model | A samples/s | B samples/s | B / A |\n|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for arch in a.arch:
            runs = {"a": [], "b": []}
            for r in range(a.runs):
                for which in ("a", "b") if r % 2 == 0 else ("b", "a"):
                    db = os.path.join(tmp, f"{which}.sqlite")  # each build its own store (schemas may differ)
                    os.environ.clear()
                    os.environ.update(base, **extra[which])
                    runs[which].append(entrena(getattr(a, which), arch, STEPS[arch], a.threads, db, tmp)[0])
                print(f"{arch} run {r + 1}: A {runs['a'][-1]:.0f}, B {runs['b'][-1]:.0f}", file=sys.stderr)
            ma, mb = statistics.median(runs["a"]), statistics.median(runs["b"])
            print(f"| {arch} (batch 128, {a.threads} threads, median of {a.runs}) | {ma:,.0f} | {mb:,.0f} | {mb / ma:.3f} |")


if __name__ == "__main__":
    main()
