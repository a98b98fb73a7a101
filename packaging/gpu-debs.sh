#!/usr/bin/env bash
# Fetches, on this (Debian) machine, the .deb files a GPU machine without a package archive needs
# to build entrena-cli against the CUDA LibTorch found there: the engine's -dev packages beyond
# LibTorch, Ninja, and the default data set. They go into .gpu-debs/ (git-ignored), which the
# device call carries; bench/gpu/check.sh unpacks them there with dpkg -x.
#
#   packaging/gpu-debs.sh && <device run> --carry .gpu-debs bash bench/gpu/check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .gpu-debs
cd .gpu-debs
apt-get download libsqlite3-dev libsqlite3-0 zlib1g-dev nlohmann-json3-dev libgloo-dev ninja-build dataset-fashion-mnist
ls -l
