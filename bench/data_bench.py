#!/usr/bin/python3
"""An image folder read for training: Entrena (bench/data_bench.cpp, the engine's own path) against
the strongest plain PyTorch script we know, on the same generated folder, with the same workers.

    /usr/bin/python3 bench/data_bench.py --cpp build/test/bench/data_bench [--dir /tmp/entrena-imgs]
        [--count 20000] [--size 32] [--workers 2] [--runs 3]

Both sides hand out one epoch of shuffled batches of 128 normalised float images [N, 3, H, W].
- First epoch: every image decoded (Entrena: listed, decoded once into its uint8 cache on every core,
  then batched; the peers: torchvision's ImageFolder + DataLoader with `--workers` workers).
- Later epoch: Entrena batches from its cache. Peer A is the typical script, which decodes again every
  epoch; peer B keeps the first epoch's uint8 images in one tensor and batches from it by index. The
  ratio is against the faster of the two, epoch by epoch.
Runs alternate (peers, Entrena, …); medians. The folder (10 classes, colour plus noise, JPEG quality
90, written with PIL) is generated once and reused while its count and size match.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import cpu_description  # noqa: E402

COLOURS = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (200, 200, 30), (200, 30, 200),
           (30, 200, 200), (120, 120, 120), (240, 140, 40), (60, 20, 120), (250, 250, 250)]
MEAN = torch.tensor([0.5, 0.5, 0.5]).view(1, 3, 1, 1)
STD = torch.tensor([0.25, 0.25, 0.25]).view(1, 3, 1, 1)


def generate(root, count, size):
    """Writes count JPEGs (count / 10 per class) unless a complete folder of that shape is there."""
    marker = os.path.join(root, ".complete")
    want = f"{count} {size}\n"
    if os.path.exists(marker) and open(marker).read() == want:
        return False
    rng = np.random.default_rng(1)
    per_class = count // len(COLOURS)
    for k, colour in enumerate(COLOURS):
        folder = os.path.join(root, f"class{k}")
        os.makedirs(folder, exist_ok=True)
        base = np.array(colour, dtype=np.int16)
        for i in range(per_class):
            pixels = np.clip(base + rng.integers(-40, 41, size=(size, size, 3)), 0, 255).astype(np.uint8)
            Image.fromarray(pixels, "RGB").save(os.path.join(folder, f"{i:06d}.jpg"), quality=90)
    with open(marker, "w") as f:
        f.write(want)
    return True


def normalise(x):
    return x.float().div_(255).sub_(MEAN).div_(STD)


def typical_epoch(root, workers, batch):
    """Peer A: ImageFolder + DataLoader, decoding every epoch (the folder listed once per epoch, too)."""
    start = time.perf_counter()
    dataset = datasets.ImageFolder(root, transform=transforms.PILToTensor())
    loader = DataLoader(dataset, batch_size=batch, shuffle=True, num_workers=workers)
    n = 0
    for images, _ in loader:
        n += normalise(images).shape[0]
    return n / (time.perf_counter() - start)


def cached_epochs(root, workers, batch):
    """Peer B: the first epoch decodes and keeps the uint8 images; the next batches from them."""
    start = time.perf_counter()
    dataset = datasets.ImageFolder(root, transform=transforms.PILToTensor())
    loader = DataLoader(dataset, batch_size=batch, shuffle=True, num_workers=workers)
    kept = []
    for images, _ in loader:
        kept.append(images)
        normalise(images)
    cache = torch.cat(kept)
    first = cache.shape[0] / (time.perf_counter() - start)
    start = time.perf_counter()
    order = torch.randperm(cache.shape[0])
    n = 0
    for i in range(0, cache.shape[0], batch):
        n += normalise(cache[order[i:i + batch]]).shape[0]
    return first, n / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", default="/tmp/entrena-imgs")
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--size", type=int, default=32)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cpp", default="build/test/bench/data_bench", help="Entrena's data_bench executable")
    args = parser.parse_args()
    torch.set_num_threads(args.workers)
    if generate(args.dir, args.count, args.size):
        print(f"generated {args.count} JPEGs of {args.size}x{args.size} in {args.dir}", file=sys.stderr)

    a1, a2, b1, b2, e1, e2, cache = [], [], [], [], [], [], []
    for r in range(args.runs):
        a1.append(typical_epoch(args.dir, args.workers, args.batch))
        a2.append(typical_epoch(args.dir, args.workers, args.batch))
        first, later = cached_epochs(args.dir, args.workers, args.batch)
        b1.append(first)
        b2.append(later)
        out = subprocess.run([args.cpp, "--dir", args.dir, "--workers", str(args.workers), "--batch", str(args.batch)],
                             check=True, capture_output=True, text=True).stdout
        e = json.loads(out)
        e1.append(e["first_epoch_images_per_s"])
        e2.append(e["later_epoch_images_per_s"])
        cache.append(e["cache_bytes"] / e["pixel_bytes"])
        print(f"run {r + 1}: typical {a1[-1]:.0f}/{a2[-1]:.0f}, cached {b1[-1]:.0f}/{b2[-1]:.0f}, "
              f"entrena {e1[-1]:.0f}/{e2[-1]:.0f} images/s (first/later epoch); "
              f"entrena peak RSS {e['peak_rss_bytes'] / 2**20:.0f} MiB", file=sys.stderr)

    med = statistics.median
    peer1, peer2 = max(med(a1), med(b1)), max(med(a2), med(b2))
    print(cpu_description())
    print(f"{args.count} JPEGs of {args.size}x{args.size}, {args.workers} workers, batch {args.batch}, "
          f"medians of {args.runs}; torch {torch.__version__}")
    print()
    print("| epoch | Entrena images/s | peer A: ImageFolder + DataLoader | peer B: decoded once, cached | "
          "Entrena / faster peer |")
    print("|---|---:|---:|---:|---:|")
    print(f"| first (decoding) | {med(e1):,.0f} | {med(a1):,.0f} | {med(b1):,.0f} | **{med(e1) / peer1:.2f}x** |")
    print(f"| later (cached) | {med(e2):,.0f} | {med(a2):,.0f} | {med(b2):,.0f} | **{med(e2) / peer2:.2f}x** |")
    print()
    print(f"Entrena's cache: {med(cache):.3f}x the images' uint8 pixels (N x C x H x W bytes)")


if __name__ == "__main__":
    main()
