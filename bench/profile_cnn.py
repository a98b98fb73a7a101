#!/usr/bin/python3
"""Where a CNN training step goes in LibTorch 1.13's CPU kernels: the same model as Entrena's cnn
(pool before ReLU, channels-last), profiled with PyTorch's profiler over 20 steps of batch 128.

    OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 bench/profile_cnn.py
"""
import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile

torch.set_num_threads(2)
torch.manual_seed(0)
m = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(),
                  nn.Conv2d(32, 64, 3, padding=1), nn.MaxPool2d(2), nn.ReLU(), nn.Flatten(),
                  nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10)).to(memory_format=torch.channels_last)
opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=5e-4)
x = torch.randn(128, 1, 28, 28).contiguous(memory_format=torch.channels_last)
y = torch.randint(0, 10, (128,))


def step():
    opt.zero_grad()
    nn.functional.cross_entropy(m(x), y).backward()
    opt.step()


for _ in range(5):
    step()
with profile(activities=[ProfilerActivity.CPU]) as prof:
    for _ in range(20):
        step()
print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=8))
