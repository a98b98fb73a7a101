#!/usr/bin/python3
"""Loads an Entrena export the way a Python user would and measures it on the test set.

    check_export.py EXPORT FASHION_MNIST_DIR

EXPORT is a .pt (state dict, or TorchScript module) or .safetensors file with its sidecar
EXPORT.json beside it. The .safetensors file is read with numpy from the format's specification
(8-byte little-endian header length, JSON header, raw little-endian data), since Debian 12 has no
python3-safetensors. Prints {"accuracy": ..., "tensors": ...} as JSON.
"""
import gzip
import json
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "python"))
from entrena_models import build  # noqa: E402

DTYPES = {"F32": "<f4", "F64": "<f8", "F16": "<f2", "I64": "<i8", "I32": "<i4", "I16": "<i2", "I8": "i1",
          "U8": "u1", "BOOL": "?"}


def read_safetensors(path):
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    data = blob[8 + n:]
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        array = np.frombuffer(data[begin:end], dtype=DTYPES[info["dtype"]]).reshape(info["shape"])
        tensors[name] = torch.from_numpy(array.copy())
    return tensors


def test_set(folder, limit, norm):
    def idx(name, offset):
        with gzip.open(os.path.join(folder, name)) as f:
            return np.frombuffer(f.read(), np.uint8, offset=offset)
    x = idx("t10k-images-idx3-ubyte.gz", 16).reshape(-1, 1, 28, 28).astype(np.float32) / 255.0
    y = idx("t10k-labels-idx1-ubyte.gz", 8).astype(np.int64)
    if limit:
        x, y = x[:limit], y[:limit]
    x = (x - norm["mean"]) / norm["std"]
    return torch.from_numpy(x.astype(np.float32)), torch.from_numpy(y)


def main():
    path, data = sys.argv[1], sys.argv[2]
    with open(path + ".json") as f:
        side = json.load(f)
    if side["format"] == "torchscript":
        model = torch.jit.load(path)
        count = len(list(model.parameters()))
    else:
        model = build(side["config"]["model"], side["input"])
        state = read_safetensors(path) if side["format"] == "safetensors" else torch.load(path)
        assert isinstance(state, dict) and all(isinstance(v, torch.Tensor) for v in state.values())
        model.load_state_dict(state)  # strict: every name and shape must match
        count = len(state)
    model.eval()
    x, y = test_set(data, side["config"]["data"].get("test_limit", 0), side["input"]["normalization"])
    with torch.no_grad():
        accuracy = float((model(x).argmax(1) == y).double().mean())
    print(json.dumps({"accuracy": accuracy, "tensors": count}))


if __name__ == "__main__":
    main()
