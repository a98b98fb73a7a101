#!/usr/bin/python3
"""Classifying a folder of images with a trained model: `entrena-cli predict --model` against the same
model in the strongest plain PyTorch script we know, on the same folder, with the same threads.

    /usr/bin/python3 bench/predict_bench.py --cli build/test/app/entrena-cli [--dir /tmp/entrena-predict]
        [--count 10000] [--stored 48] [--size 32] [--arch cnn] [--runs 3]

The folder (10 classes of colour JPEGs, `--stored` pixels square, written with PIL) is generated once.
A short run trains `--arch` on it at `--size` (so every image is resized), and `export` writes the
model with its .json. Then, alternating, each side classifies every image and writes each one's top 3
classes and probabilities to a CSV file:
- Entrena: `entrena-cli predict --model model.pt FOLDER --csv --out FILE`.
- Peer A, the typical script: torchvision's ImageFolder + transforms (Resize, ToTensor, Normalize)
  + DataLoader with one worker per core, the model from docs/python/entrena_models.py,
  channels-last, `torch.inference_mode()`.
- Peer B, the same with torchvision.io.read_image (libjpeg straight into a tensor) and tensor transforms
  in the workers instead of PIL.
Both are timed from process start to the CSV written (the user waits for that), and in the loop
alone (Python's imports and the model's loading left out). Ratios are against the faster peer.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import cpu_description  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# The peer: what a user writes to classify a folder with Entrena's exported model in plain PyTorch.
PEER = r'''
import csv, json, os, sys, time
start = time.perf_counter()
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms
from torchvision.io import read_image, ImageReadMode
sys.path.insert(0, sys.argv[5])
from entrena_models import build

model_file, folder, out, variant = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
threads = os.cpu_count()
torch.set_num_threads(threads)
side = json.load(open(model_file + ".json"))
model = build(side["config"]["model"], side["input"])
model.load_state_dict(torch.load(model_file))
model = model.eval().to(memory_format=torch.channels_last)
c, h, w = side["input"]["shape"]
norm = side["input"]["normalization"]
names = side["input"]["class_names"]
mean, std = norm["mean"], norm["std"]
if variant == "pil":
    tf = transforms.Compose([transforms.Resize((h, w)), transforms.ToTensor(), transforms.Normalize(mean, std)])
    dataset = datasets.ImageFolder(folder, transform=tf)
else:
    mode = ImageReadMode.RGB if c == 3 else ImageReadMode.GRAY
    tf = transforms.Compose([transforms.Resize((h, w), antialias=True), transforms.ConvertImageDtype(torch.float),
                             transforms.Normalize(mean, std)])
    dataset = datasets.ImageFolder(folder, loader=lambda p: read_image(p, mode), transform=tf)
loader = DataLoader(dataset, batch_size=256, num_workers=threads)
loop = time.perf_counter()
rows = []
with torch.inference_mode():
    for x, _ in loader:
        p = torch.softmax(model(x.contiguous(memory_format=torch.channels_last)), 1)
        v, i = p.topk(3, 1)
        rows += zip(v.tolist(), i.tolist())
with open(out, "w", newline="") as f:
    writer = csv.writer(f)
    writer.writerow(["input", "class_1", "probability_1", "class_2", "probability_2", "class_3", "probability_3"])
    for (path, _), (v, i) in zip(dataset.samples, rows):
        writer.writerow([path] + [x for k in range(3) for x in (names[i[k]], v[k])])
end = time.perf_counter()
print(f"{len(rows)} {end - loop:.6f} {end - start:.6f}")
'''


def generate(root, count, size):
    """count JPEGs of size x size (count / 10 per class), unless a complete folder of that shape is there."""
    marker = os.path.join(root, ".complete")
    want = f"{count} {size}\n"
    if os.path.exists(marker) and open(marker).read() == want:
        return
    rng = np.random.default_rng(5)
    for k in range(10):
        folder = os.path.join(root, f"class{k}")
        os.makedirs(folder, exist_ok=True)
        base = rng.integers(30, 226, size=3).astype(np.int16)
        for i in range(count // 10):
            pixels = np.clip(base + rng.integers(-90, 91, size=(size, size, 3)), 0, 255).astype(np.uint8)
            Image.fromarray(pixels, "RGB").save(os.path.join(folder, f"{i:06d}.jpg"), quality=90)
    with open(marker, "w") as f:
        f.write(want)
    print(f"generated {count} JPEGs of {size}x{size} in {root}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", default="build/test/app/entrena-cli")
    parser.add_argument("--dir", default="/tmp/entrena-predict")
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--stored", type=int, default=48, help="the JPEGs' size on disk")
    parser.add_argument("--size", type=int, default=32, help="the size the model takes")
    parser.add_argument("--arch", default="cnn")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folder = os.path.join(args.dir, "images")
    generate(folder, args.count, args.stored)

    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "c.json")
        with open(config, "w") as f:
            f.write('{"name": "predict-bench", "data": {"dataset": "image-folder", "path": "%s", "image_size": %d, '
                    '"train_limit": 2000}, "model": {"arch": "%s"}, "train": {"epochs": 1}}' % (folder, args.size, args.arch))
        db = os.path.join(tmp, "runs.sqlite")
        subprocess.run([args.cli, "train", "--config", config, "--db", db], check=True, capture_output=True)
        model = os.path.join(tmp, "model.pt")
        subprocess.run([args.cli, "export", "--run", "1", "--db", db, "--checkpoint", "last", "--out", model], check=True,
                       capture_output=True)
        peer = os.path.join(tmp, "peer.py")
        with open(peer, "w") as f:
            f.write(PEER)
        docs = os.path.join(HERE, "..", "docs", "python")

        ours, peer_a, peer_b = [], [], []
        for r in range(args.runs):
            for variant, into in (("pil", peer_a), ("io", peer_b)):
                start = time.perf_counter()
                out = subprocess.run(["/usr/bin/python3", peer, model, folder, os.path.join(tmp, "p.csv"), variant, docs],
                                     check=True, capture_output=True, text=True).stdout.split()
                whole = time.perf_counter() - start
                into.append((int(out[0]) / whole, int(out[0]) / float(out[1])))
            start = time.perf_counter()
            subprocess.run([args.cli, "predict", "--model", model, folder, "--csv", "--out", os.path.join(tmp, "e.csv")],
                           check=True, capture_output=True)
            ours.append((args.count / (time.perf_counter() - start), None))
            print(f"run {r + 1}: entrena {ours[-1][0]:.0f}, peer A {peer_a[-1][0]:.0f} ({peer_a[-1][1]:.0f} in its loop), "
                  f"peer B {peer_b[-1][0]:.0f} ({peer_b[-1][1]:.0f}) images/s", file=sys.stderr)
        with open(os.path.join(tmp, "e.csv")) as e, open(os.path.join(tmp, "p.csv")) as p:
            entrena_rows, peer_rows = len(e.readlines()), len(p.readlines())
        assert entrena_rows == peer_rows == args.count + 1, (entrena_rows, peer_rows)

    med = statistics.median
    e = med(x[0] for x in ours)
    a, b = med(x[0] for x in peer_a), med(x[0] for x in peer_b)
    a_loop, b_loop = med(x[1] for x in peer_a), med(x[1] for x in peer_b)
    print(cpu_description())
    print(f"{args.count} JPEGs of {args.stored}x{args.stored} resized to {args.size}x{args.size}, model {args.arch}, "
          f"{os.cpu_count()} threads, medians of {args.runs}")
    print()
    print("| | images/s, process start to CSV written | in its loop only |")
    print("|---|---:|---:|")
    print(f"| Entrena `predict --model` | {e:,.0f} | – |")
    print(f"| peer A: ImageFolder + PIL transforms + DataLoader | {a:,.0f} | {a_loop:,.0f} |")
    print(f"| peer B: ImageFolder + read_image + tensor transforms | {b:,.0f} | {b_loop:,.0f} |")
    print()
    print(f"Entrena / faster peer: **{e / max(a, b):.2f}x** (whole process); "
          f"against the faster peer's loop alone: **{e / max(a_loop, b_loop):.2f}x**")


if __name__ == "__main__":
    main()
