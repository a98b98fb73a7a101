#!/usr/bin/python3
"""Reads an Entrena .safetensors export with readers other than Entrena's own, and compares it
with the .pt export of the same checkpoint.

    check_safetensors.py FILE.safetensors FILE.pt

numpy maps every tensor in place from the header's offsets (numpy.frombuffer, which records whether
the data it points at is aligned for its type) and so does torch.frombuffer. Prints one JSON object:
{"tensors": N, "misaligned": [names], "int64": [names], "max_difference": D, "header_padded": bool,
 "covers_data": bool}. Exits 1 if the file cannot be read at all.
"""
import json
import struct
import sys

import numpy as np
import torch

NUMPY = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4", "I16": "<i2", "I8": "i1",
         "U8": "u1", "BOOL": "?"}
TORCH = {"F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
         "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8, "U8": torch.uint8,
         "BOOL": torch.bool}


def main():
    path, reference = sys.argv[1], sys.argv[2]
    with open(path, "rb") as f:
        blob = bytearray(f.read())
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    start = 8 + n
    state = torch.load(reference)
    misaligned, int64, spans = [], [], []
    difference = 0.0
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        spans.append((begin, end))
        dtype = info["dtype"]
        count = int(np.prod(info["shape"], dtype=np.int64))
        array = np.frombuffer(blob, dtype=NUMPY[dtype], count=count, offset=start + begin)
        if not array.flags.aligned or (start + begin) % array.itemsize:
            misaligned.append(name)
        tensor = torch.frombuffer(blob, dtype=TORCH[dtype], count=count, offset=start + begin).reshape(info["shape"])
        if dtype == "I64":
            int64.append(name)
        expected = state[name]
        assert tensor.dtype == expected.dtype, f"{name}: {tensor.dtype} vs {expected.dtype}"
        assert list(tensor.shape) == list(expected.shape), f"{name}: {list(tensor.shape)} vs {list(expected.shape)}"
        assert np.array_equal(array.reshape(info["shape"]), expected.numpy()), f"{name}: numpy read other values"
        difference = max(difference, float((tensor.double() - expected.double()).abs().max()) if count else 0.0)
    spans.sort()
    covers = spans[0][0] == 0 and spans[-1][1] == len(blob) - start and all(
        a[1] == b[0] for a, b in zip(spans, spans[1:]))
    print(json.dumps({"tensors": len(spans), "misaligned": misaligned, "int64": int64, "max_difference": difference,
                      "header_padded": start % 8 == 0, "covers_data": covers, "in_reference": len(state)}))


if __name__ == "__main__":
    main()
