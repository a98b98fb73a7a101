#!/usr/bin/python3
"""Checks an ONNX export of Entrena in runtimes that are not Entrena's: onnx.checker validates the
file, OpenCV's DNN module runs it. The images `entrena-cli predict --json` classified are decoded with
OpenCV, normalised as the export's .json says, and OpenCV's probabilities (softmax of the graph's
logits) must equal Entrena's for every class of every image.

    check_onnx.py MODEL.onnx PREDICTIONS.json TOLERANCE

Prints the largest difference; exit status 0 when it is within TOLERANCE, 1 otherwise.
"""
import json
import sys

import cv2
import numpy as np
import onnx


def main():
    model_path, predictions_path, tolerance = sys.argv[1], sys.argv[2], float(sys.argv[3])
    onnx.checker.check_model(onnx.load(model_path), full_check=True)
    side = json.load(open(model_path + ".json"))
    c, h, w = side["input"]["shape"]
    norm = side["input"]["normalization"]
    mean = np.asarray(norm["mean"], dtype=np.float32).reshape(-1, 1, 1)
    std = np.asarray(norm["std"], dtype=np.float32).reshape(-1, 1, 1)
    predictions = json.load(open(predictions_path))["predictions"]
    batch = []
    for p in predictions:
        image = cv2.imread(p["input"], cv2.IMREAD_GRAYSCALE if c == 1 else cv2.IMREAD_COLOR)
        if c == 3:
            image = cv2.cvtColor(image, cv2.COLOR_BGR2RGB).transpose(2, 0, 1)
        image = image.reshape(c, h, w).astype(np.float32)
        batch.append((image / np.float32(255) - mean) / std)
    net = cv2.dnn.readNetFromONNX(model_path)
    net.setInput(np.stack(batch).astype(np.float32))
    logits = net.forward().astype(np.float64)
    probabilities = np.exp(logits - logits.max(1, keepdims=True))
    probabilities /= probabilities.sum(1, keepdims=True)
    worst = 0.0
    for row, p in zip(probabilities, predictions):
        if len(p["top"]) != row.shape[0]:
            sys.exit(f"predict gave {len(p['top'])} classes of {p['input']}; ask it for all {row.shape[0]} (--top)")
        for ranked in p["top"]:
            worst = max(worst, abs(row[ranked["index"]] - ranked["probability"]))
    print(f"{len(predictions)} images, largest difference {worst:.3g}")
    sys.exit(0 if worst <= tolerance else 1)


if __name__ == "__main__":
    main()
