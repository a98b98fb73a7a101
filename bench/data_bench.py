#!/usr/bin/env python3
"""Image-folder decode speed: torchvision's ImageFolder + DataLoader (the first epoch, as a PyTorch
user reads a folder of JPEGs) against Entrena's decoder (bench/data_bench.cpp) on the same folder.

    /usr/bin/python3 bench/data_bench.py [--dir /tmp/entrena-imgs] [--count 20000] [--size 32]
        [--workers 2] [--runs 3] [--cpp build/test/bench/data_bench]

The folder is generated once (10 classes, each a colour plus noise, JPEG quality 90, via PIL) and
reused while its count and size match. Both sides produce uint8 [3, H, W] per image (torchvision:
the default loader's convert("RGB") then PILToTensor), the peer with `--workers` DataLoader workers,
Entrena with as many threads. Runs alternate (peer, Entrena, peer, …) and medians are reported.
Prints one JSON object per measurement and a summary line.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

COLOURS = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (200, 200, 30), (200, 30, 200),
           (30, 200, 200), (120, 120, 120), (240, 140, 40), (60, 20, 120), (250, 250, 250)]


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


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


def torchvision_epoch(root, workers, batch):
    start = time.perf_counter()
    dataset = datasets.ImageFolder(root, transform=transforms.PILToTensor())
    listed = time.perf_counter()
    loader = DataLoader(dataset, batch_size=batch, shuffle=False, num_workers=workers)
    n = 0
    for images, _ in loader:
        n += images.shape[0]
    end = time.perf_counter()
    return {"side": "torchvision", "images": n, "workers": workers, "list_s": round(listed - start, 4),
            "epoch_s": round(end - listed, 4), "images_per_s": round(n / (end - start), 1)}


def entrena_decode(cpp, root, threads):
    out = subprocess.run([cpp, "--dir", root, "--threads", str(threads)], check=True, capture_output=True, text=True)
    result = json.loads(out.stdout)
    result["side"] = "entrena"
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", default="/tmp/entrena-imgs")
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--size", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2, help="DataLoader workers and Entrena threads")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cpp", default="build/test/bench/data_bench", help="Entrena's data_bench executable")
    args = parser.parse_args()

    started = time.perf_counter()
    if generate(args.dir, args.count, args.size):
        print(f"generated {args.count} JPEGs of {args.size}x{args.size} in {args.dir} "
              f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    have_cpp = os.path.exists(args.cpp)
    if not have_cpp:
        print(f"{args.cpp} not found: build it with `ninja -C build/test data_bench`; timing torchvision only",
              file=sys.stderr)

    peer, ours = [], []
    for _ in range(args.runs):
        r = torchvision_epoch(args.dir, args.workers, args.batch)
        print(json.dumps(r))
        peer.append(r["images_per_s"])
        if have_cpp:
            r = entrena_decode(args.cpp, args.dir, args.workers)
            print(json.dumps(r))
            ours.append(r["images_per_s"])

    summary = {"cpu": cpu_model(), "logical_cpus": os.cpu_count(), "torch": torch.__version__,
               "images": args.count, "size": args.size, "workers": args.workers, "runs": args.runs,
               "torchvision_images_per_s": statistics.median(peer)}
    if ours:
        summary["entrena_images_per_s"] = statistics.median(ours)
        summary["entrena_over_torchvision"] = round(summary["entrena_images_per_s"] / summary["torchvision_images_per_s"], 2)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
