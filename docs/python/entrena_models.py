"""Entrena's built-in models as PyTorch modules, for loading Entrena's exports in Python.

    import json, torch
    from entrena_models import build
    side = json.load(open("model.pt.json"))          # the sidecar written beside every export
    model = build(side["config"]["model"], side["input"])
    model.load_state_dict(torch.load("model.pt"))    # strict: every name and shape matches

Each module is an nn.Sequential with the same layer names as Entrena's LibTorch models, so the
state dict's keys ("conv1.weight", "stage2_block1.bn1.running_mean", ...) match one for one.
Inputs are normalised as the sidecar's "input" -> "normalization" says.
"""
from collections import OrderedDict

from torch import nn


def mlp(inputs, classes, hidden=(256, 128), dropout=0.0):
    layers, width = [("flatten", nn.Flatten())], inputs
    for i, h in enumerate(hidden):
        layers += [(f"fc{i}", nn.Linear(width, h)), (f"relu{i}", nn.ReLU())]
        if dropout > 0:
            layers.append((f"dropout{i}", nn.Dropout(dropout)))
        width = h
    layers.append(("out", nn.Linear(width, classes)))
    return nn.Sequential(OrderedDict(layers))


def cnn(channels, height, width, classes, widths=(32, 64), dropout=0.0):
    """Two blocks of 3x3 convolution, 2x2 max-pooling, ReLU (pooling before the ReLU is the same
    function as after it, and cheaper), then a 128-wide hidden layer."""
    c1, c2 = widths
    layers = [("conv1", nn.Conv2d(channels, c1, 3, padding=1)), ("pool1", nn.MaxPool2d(2)), ("relu1", nn.ReLU()),
              ("conv2", nn.Conv2d(c1, c2, 3, padding=1)), ("pool2", nn.MaxPool2d(2)), ("relu2", nn.ReLU()),
              ("flatten", nn.Flatten()), ("fc", nn.Linear(c2 * (height // 4) * (width // 4), 128)),
              ("relu3", nn.ReLU())]
    if dropout > 0:
        layers.append(("dropout", nn.Dropout(dropout)))
    layers.append(("out", nn.Linear(128, classes)))
    return nn.Sequential(OrderedDict(layers))


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions with batch norm; a 1x1 projection on the shortcut when the shape changes."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.projection = self.projection_bn = None
        if stride != 1 or cin != cout:
            self.projection = nn.Conv2d(cin, cout, 1, stride=stride, bias=False)
            self.projection_bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        y = self.bn2(self.conv2(nn.functional.relu(self.bn1(self.conv1(x)))))
        shortcut = self.projection_bn(self.projection(x)) if self.projection is not None else x
        return nn.functional.relu(y + shortcut)


def resnet(channels, classes, widths=(16, 32, 64), blocks=1, dropout=0.0):
    layers = [("stem", nn.Conv2d(channels, widths[0], 3, padding=1, bias=False)),
              ("stem_bn", nn.BatchNorm2d(widths[0])), ("stem_relu", nn.ReLU())]
    width = widths[0]
    for stage, w in enumerate(widths):
        for b in range(blocks):
            stride = 2 if stage > 0 and b == 0 else 1
            layers.append((f"stage{stage + 1}_block{b + 1}", ResidualBlock(width, w, stride)))
            width = w
    layers += [("pool", nn.AdaptiveAvgPool2d(1)), ("flatten", nn.Flatten())]
    if dropout > 0:
        layers.append(("dropout", nn.Dropout(dropout)))
    layers.append(("out", nn.Linear(width, classes)))
    return nn.Sequential(OrderedDict(layers))


def build(model, inputs):
    """`model`: the sidecar's config["model"]; `inputs`: the sidecar's "input" (shape, classes)."""
    (c, h, w), classes = inputs["shape"], inputs["classes"]
    arch, dropout = model["arch"], model.get("dropout", 0.0)
    if arch == "mlp":
        return mlp(c * h * w, classes, model.get("hidden", (256, 128)), dropout)
    if arch == "cnn":
        return cnn(c, h, w, classes, model.get("channels", (32, 64)), dropout)
    if arch == "resnet":
        return resnet(c, classes, model.get("channels", (16, 32, 64)), model.get("blocks", 1), dropout)
    raise ValueError(f"{arch}: load TorchScript exports with torch.jit.load instead")
