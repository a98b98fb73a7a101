#!/usr/bin/python3
"""The data-parallel peer: the same model as bench/peer.py, trained by PyTorch's own
DistributedDataParallel over Gloo, one process per rank, as a PyTorch user writes it
(DistributedSampler, DDP with its default 25 MB buckets). Each rank gets `--batch` samples a step.

    /usr/bin/python3 bench/peer_ddp.py --nproc 2 --arch mlp --steps 400 --batch 64 --threads 1

Prints one JSON object from rank 0: samples/s over the timed steps (all ranks' samples; the first
5 steps are warm-up).
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import time

import numpy as np
import torch
import torch.distributed as dist
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer import idx, model  # noqa: E402  (the same model definitions)


def rank_main(a):
    torch.set_num_threads(a.threads)
    dist.init_process_group("gloo")
    torch.manual_seed(1)
    x = torch.tensor(idx(a.data + "/train-images-idx3-ubyte.gz", 16).reshape(-1, 1, 28, 28).astype(np.float32) / 255.0)
    x = (x - x.mean()) / x.std()
    y = torch.tensor(idx(a.data + "/train-labels-idx1-ubyte.gz", 8).astype(np.int64))
    data = TensorDataset(x, y)
    sampler = DistributedSampler(data, shuffle=True, seed=1)
    loader = DataLoader(data, batch_size=a.batch, sampler=sampler)
    m = nn.parallel.DistributedDataParallel(model(a.arch))
    opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
    loss_fn = nn.CrossEntropyLoss()
    step, samples, start, epoch = 0, 0, None, 0
    while step < a.steps:
        sampler.set_epoch(epoch)
        for xb, yb in loader:
            if step == 5:
                start, samples = time.perf_counter(), 0
            opt.zero_grad()
            loss_fn(m(xb), yb).backward()
            opt.step()
            step += 1
            samples += len(xb)
            if step >= a.steps:
                break
        epoch += 1
    seconds = time.perf_counter() - start
    if dist.get_rank() == 0:
        print(json.dumps({"arch": a.arch, "world_size": dist.get_world_size(), "threads": torch.get_num_threads(),
                          "samples_per_s": samples * dist.get_world_size() / seconds}), flush=True)
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--nproc", type=int, default=2)
    p.add_argument("--arch", default="mlp")
    p.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    p.add_argument("--batch", type=int, default=64, help="per rank")
    p.add_argument("--steps", type=int, default=400)
    p.add_argument("--threads", type=int, default=1, help="per rank")
    a = p.parse_args()
    if "RANK" in os.environ:
        rank_main(a)
        return
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    procs = []
    for r in range(a.nproc):
        env = dict(os.environ, RANK=str(r), WORLD_SIZE=str(a.nproc), LOCAL_RANK=str(r), MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=str(port))
        procs.append(subprocess.Popen([sys.executable] + sys.argv, env=env))
    sys.exit(max(p.wait() for p in procs))


if __name__ == "__main__":
    main()
