#!/usr/bin/env python3
"""Checks that check_limits.py counts what clang-tidy counts (docs/architecture.md, "Limits").

Runs clang-tidy's readability-function-size at a low LineThreshold on every .cpp of engine/, app/
and ui/ in BUILD_DIR's compile_commands.json, and compares the lengths it reports, file by file,
with check_limits.py's. Slow (clang-tidy parses LibTorch's headers in every engine file): a local
command, not a CI test.

Usage: limits_agree.py SOURCE_DIR BUILD_DIR [THRESHOLD] [FILE...]
"""
import collections
import json
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import check_limits  # noqa: E402


def tidy_lengths(build, file, threshold):
    config = "{CheckOptions: [{key: readability-function-size.LineThreshold, value: %d}]}" % threshold
    out = subprocess.run(
        ["clang-tidy-14", "-p", build, "--checks=-*,readability-function-size", "--config=" + config, file],
        capture_output=True, text=True).stdout
    return sorted(int(n) for path, n in re.findall(r"^(\S+?):\d+:\d+: note: (\d+) lines including", out, re.M)
                  if pathlib.Path(path).resolve() == pathlib.Path(file).resolve())


def without_gcc_pch(build):
    """A copy of BUILD's compile database whose forced include of CMake's precompiled header names
    the header it wraps: clang cannot read GCC's .gch, and fails on finding one beside the .hxx."""
    commands = json.load(open(pathlib.Path(build) / "compile_commands.json"))
    for c in commands:
        for hxx in set(re.findall(r"-include (\S+cmake_pch\.hxx)", c["command"])):
            wrapped = re.search(r'#include "([^"]+)"', pathlib.Path(hxx).read_text()).group(1)
            c["command"] = c["command"].replace("-include " + hxx, "-include " + wrapped)
    folder = tempfile.mkdtemp(prefix="limits_agree.")
    json.dump(commands, open(pathlib.Path(folder) / "compile_commands.json", "w"))
    return folder


def main(argv):
    root, build = pathlib.Path(argv[1]).resolve(), without_gcc_pch(argv[2])
    threshold = int(argv[3]) if len(argv) > 3 else 40
    wanted = set(argv[4:])
    files = [c["file"] for c in json.load(open(pathlib.Path(build) / "compile_commands.json"))]
    files = sorted({f for f in files if pathlib.Path(f).resolve().relative_to(root).parts[0] in check_limits.FUNCTION_LINES
                    if pathlib.Path(f).resolve().is_relative_to(root)})
    disagree = 0
    for f in files:
        rel = str(pathlib.Path(f).resolve().relative_to(root))
        if wanted and rel not in wanted:
            continue
        text = pathlib.Path(f).read_text(encoding="utf-8")
        ours = sorted(n for _, n in check_limits.functions(check_limits.code_of(text)) if n > threshold)
        theirs = tidy_lengths(build, f, threshold)
        same = collections.Counter(ours) == collections.Counter(theirs)
        disagree += not same
        print(f"{'same' if same else 'DIFFERENT'} {rel}: clang-tidy {theirs}, check_limits {ours}", flush=True)
    print(f"{disagree} of the files compared disagree")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
