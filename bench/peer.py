#!/usr/bin/python3
"""The peer Entrena is measured against: the same model trained by a plain PyTorch script, on the same
data. --feed loader (the default) is the way a typical user writes it (a DataLoader over a
TensorDataset, shuffle, the standard loop); --feed prebatched takes each batch by index from the
tensors in memory (a shuffled permutation per epoch), the faster way to feed a model from memory.
--expert adds what a script written for speed has: gradients set to None instead of zeroed (PyTorch
2.0's default), and for the CNN channels-last weights and batches.

Prints one JSON object: samples/s over the timed steps (the first 5 steps are warm-up).
With --target ACC it trains epoch by epoch instead, measures the test accuracy after each epoch
(outside the clock) and prints the training time until it first reaches ACC.
Run with /usr/bin/python3 (Debian's python3-torch, the same 1.13.1 build as Entrena's LibTorch).
"""
import argparse
import gzip
import json
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def idx(path, offset):
    with gzip.open(path) as f:
        return np.frombuffer(f.read(), np.uint8, offset=offset)


def resnet(channels=1):
    """Entrena's built-in resnet ([16, 32, 64], one block per stage), written as a script would."""
    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.short = None
            if stride != 1 or cin != cout:
                self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            y = nn.functional.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            return nn.functional.relu(y + (self.short(x) if self.short is not None else x))

    return nn.Sequential(nn.Conv2d(channels, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                         Block(16, 16, 1), Block(16, 32, 2), Block(32, 64, 2), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Linear(64, 10))


def model(arch):
    if arch == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
                             nn.Linear(128, 10))
    if arch == "resnet":
        return resnet(1)
    return nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))


class Prebatched:
    """Batches by index from tensors in memory: a new shuffled order each epoch, no DataLoader."""

    def __init__(self, x, y, batch):
        self.x, self.y, self.batch = x, y, batch

    def __iter__(self):
        order = torch.randperm(len(self.x))
        for i in range(0, len(order), self.batch):
            idx = order[i:i + self.batch]
            yield self.x[idx], self.y[idx]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--arch", default="mlp")
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--threads", type=int, default=0, help="0: PyTorch's default")
    p.add_argument("--optimizer", choices=["sgd", "adam"], default="sgd")
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--target", type=float, default=0, help="test accuracy to reach; 0: measure throughput")
    p.add_argument("--max-epochs", type=int, default=10)
    p.add_argument("--device", default="cpu", help="cpu or cuda (the GPU check, bench/gpu/check.sh)")
    p.add_argument("--feed", choices=["loader", "prebatched"], default="loader")
    p.add_argument("--expert", action="store_true", help="set_to_none, and channels-last for the cnn and resnet")
    p.add_argument("--precision", choices=["fp32", "bf16"], default="fp32",
                   help="bf16: the forward pass and loss under torch.autocast (as Entrena's train.precision bf16)")
    a = p.parse_args()
    autocast = torch.autocast(a.device.split(":")[0], dtype=torch.bfloat16, enabled=a.precision == "bf16")
    if a.threads:
        torch.set_num_threads(a.threads)
    torch.manual_seed(1)
    x = torch.tensor(idx(a.data + "/train-images-idx3-ubyte.gz", 16).reshape(-1, 1, 28, 28).astype(np.float32) / 255.0)
    mean, std = x.mean(), x.std()
    x = (x - mean) / std
    y = torch.tensor(idx(a.data + "/train-labels-idx1-ubyte.gz", 8).astype(np.int64))
    if a.feed == "loader":
        loader = DataLoader(TensorDataset(x, y), batch_size=a.batch, shuffle=True)
    else:
        loader = Prebatched(x, y, a.batch)
    m = model(a.arch).to(a.device)
    layout = torch.channels_last if a.expert and a.arch in ("cnn", "resnet") else torch.contiguous_format
    m = m.to(memory_format=layout)
    if a.optimizer == "adam":
        opt = torch.optim.Adam(m.parameters(), lr=a.lr)
    else:
        opt = torch.optim.SGD(m.parameters(), lr=a.lr, momentum=0.9, nesterov=True, weight_decay=5e-4)
    loss_fn = nn.CrossEntropyLoss()
    if a.target:
        tx = torch.tensor(idx(a.data + "/t10k-images-idx3-ubyte.gz", 16).reshape(-1, 1, 28, 28).astype(np.float32) / 255.0)
        tx = (tx - mean) / std
        ty = torch.tensor(idx(a.data + "/t10k-labels-idx1-ubyte.gz", 8).astype(np.int64))
        time_to_target(a, m, opt, loss_fn, loader, tx.contiguous(memory_format=layout), ty, layout, autocast)
        return
    m.train()
    step, samples, start = 0, 0, None
    while step < a.steps:
        for xb, yb in loader:
            xb, yb = xb.to(a.device, non_blocking=True).contiguous(memory_format=layout), yb.to(a.device, non_blocking=True)
            if step == 5:
                if a.device != "cpu":
                    torch.cuda.synchronize()
                start, samples = time.perf_counter(), 0
            opt.zero_grad(set_to_none=a.expert)
            with autocast:
                loss = loss_fn(m(xb), yb)
            loss.backward()
            opt.step()
            step += 1
            samples += len(xb)
            if step >= a.steps:
                break
    if a.device != "cpu":
        torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    print(json.dumps({"arch": a.arch, "device": a.device, "threads": torch.get_num_threads(), "samples_per_s": samples / seconds,
                      "precision": a.precision, "loss": float(loss)}))


def time_to_target(a, m, opt, loss_fn, loader, tx, ty, layout, autocast):
    seconds, accuracies = 0.0, []
    for epoch in range(1, a.max_epochs + 1):
        m.train()
        start = time.perf_counter()
        for xb, yb in loader:
            opt.zero_grad(set_to_none=a.expert)
            with autocast:
                loss = loss_fn(m(xb.contiguous(memory_format=layout)), yb)
            loss.backward()
            opt.step()
        seconds += time.perf_counter() - start
        m.eval()
        with torch.no_grad():  # in fp32, as Entrena evaluates
            correct = sum(int((m(tx[i:i + 1000]).argmax(1) == ty[i:i + 1000]).sum()) for i in range(0, len(tx), 1000))
        accuracies.append(correct / len(tx))
        if accuracies[-1] >= a.target:
            break
    reached = accuracies[-1] >= a.target
    print(json.dumps({"arch": a.arch, "threads": torch.get_num_threads(), "target": a.target, "reached": reached,
                      "seconds": seconds if reached else None, "epochs": len(accuracies), "accuracies": accuracies}))


if __name__ == "__main__":
    main()
