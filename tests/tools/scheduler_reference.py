#!/usr/bin/python3
"""Writes tests/data/scheduler_reference.json: learning-rate sequences from PyTorch's own
schedulers (Debian's python3-torch 1.13.1, the same build as the LibTorch Entrena links), for
tst_schedulers to compare against. Run with /usr/bin/python3 and commit the output:

    /usr/bin/python3 tests/tools/scheduler_reference.py > tests/data/scheduler_reference.json
"""
import json
import torch
from torch.optim import lr_scheduler as S

EPOCHS = 30
# A scripted validation-loss sequence with improvements, plateaus, tiny gains below the
# threshold and a rebound, to drive ReduceLROnPlateau through every branch.
METRICS = [1.0, 0.8, 0.7, 0.7, 0.7, 0.69999, 0.6, 0.61, 0.62, 0.63, 0.5, 0.5, 0.5, 0.5, 0.5,
           0.49, 0.48, 0.48, 0.48, 0.48, 0.3, 0.31, 0.32, 0.33, 0.34, 0.35, 0.36, 0.2, 0.2, 0.2]
MAX_METRICS = [1.0 - m for m in METRICS]

CASES = [
    ("step", {"step_size": 3, "gamma": 0.5}, None),
    ("step", {"step_size": 1, "gamma": 0.9}, None),
    ("multistep", {"milestones": [2, 5, 11], "gamma": 0.3}, None),
    ("exponential", {"gamma": 0.93}, None),
    ("cosine", {"T_max": 10, "eta_min": 0.001}, None),
    ("cosine", {"T_max": 30, "eta_min": 0.0}, None),
    ("reduce_on_plateau", {"mode": "min", "factor": 0.5, "patience": 2, "threshold": 1e-4,
                           "threshold_mode": "rel", "cooldown": 0, "min_lr": 0.0, "eps": 1e-8}, METRICS),
    ("reduce_on_plateau", {"mode": "min", "factor": 0.1, "patience": 0, "threshold": 0.01,
                           "threshold_mode": "abs", "cooldown": 2, "min_lr": 1e-4, "eps": 1e-8}, METRICS),
    ("reduce_on_plateau", {"mode": "max", "factor": 0.7, "patience": 1, "threshold": 1e-3,
                           "threshold_mode": "rel", "cooldown": 1, "min_lr": 0.0, "eps": 1e-8}, MAX_METRICS),
]


# one_cycle steps per optimizer step: these cases run STEPS steps, recording lr and momentum.
STEPS = 50
STEP_CASES = [
    ("one_cycle", {"max_lr": 0.5, "total_steps": 50}),
    ("one_cycle", {"max_lr": 0.5, "total_steps": 50, "pct_start": 0.25, "anneal_strategy": "linear",
                   "div_factor": 10.0, "final_div_factor": 100.0}),
    ("one_cycle", {"max_lr": 1.0, "total_steps": 50, "three_phase": True}),
    ("one_cycle", {"max_lr": 0.3, "total_steps": 60, "base_momentum": 0.8, "max_momentum": 0.9}),
]


def build(name, params, opt):
    if name == "step":
        return S.StepLR(opt, **params)
    if name == "multistep":
        return S.MultiStepLR(opt, **params)
    if name == "exponential":
        return S.ExponentialLR(opt, **params)
    if name == "cosine":
        return S.CosineAnnealingLR(opt, **params)
    if name == "reduce_on_plateau":
        return S.ReduceLROnPlateau(opt, **params)
    if name == "one_cycle":
        return S.OneCycleLR(opt, **params)
    raise ValueError(name)


def sequence(name, params, metrics, base_lr=0.1):
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=base_lr)
    sched = build(name, params, opt)
    lrs = []
    for epoch in range(EPOCHS):
        lrs.append(opt.param_groups[0]["lr"])  # the rate this epoch trains with
        opt.step()
        if metrics is None:
            sched.step()
        else:
            sched.step(metrics[epoch])
    return lrs


out = {"torch_version": torch.__version__, "base_lr": 0.1, "epochs": EPOCHS, "cases": []}
for name, params, metrics in CASES:
    out["cases"].append({"name": name, "params": params, "metrics": metrics,
                         "lr": sequence(name, params, metrics)})
out["steps"] = STEPS
out["step_cases"] = []
for name, params in STEP_CASES:
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
    sched = build(name, params, opt)
    lrs, momenta = [], []
    for _ in range(STEPS):
        lrs.append(opt.param_groups[0]["lr"])
        momenta.append(opt.param_groups[0]["momentum"])
        opt.step()
        sched.step()
    out["step_cases"].append({"name": name, "params": params, "lr": lrs, "momentum": momenta})
print(json.dumps(out, indent=1))
