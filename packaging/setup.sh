#!/usr/bin/env bash
# Installs everything Entrena's build, tests and default data set need on Debian 12.
# Idempotent and non-interactive; works as root or through sudo.
#
#   packaging/setup.sh            build + tests + package + Fashion-MNIST
set -euo pipefail

packages=(
    # toolchain
    build-essential cmake ninja-build pkg-config
    # engine: LibTorch (CPU) with its Gloo headers, SQLite, zlib, JSON
    libtorch-dev libgloo-dev libsqlite3-dev zlib1g-dev nlohmann-json3-dev
    # entrena-cli's command line (header-only)
    libcli11-dev
    # image folders (data.dataset image-folder): PNG and JPEG decoding; torchvision/PIL for bench/'s peer
    libturbojpeg0-dev libpng-dev python3-torchvision python3-pil
    # bench/conv_algorithms: oneDNN's own headers, for the library LibTorch links (libdnnl.so.2)
    libdnnl-dev
    # ONNX export (libonnx-dev writes the graphs); the tests check them with onnx.checker and load
    # them in an independent runtime, OpenCV's DNN module
    libonnx-dev python3-onnx python3-opencv
    # Without OpenBLAS, Debian's LibTorch falls back to the reference BLAS: ~18x slower training.
    libopenblas0-pthread
    # GUI: Qt 6, QCustomPlot, translations (ours and Qt's own Spanish strings)
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
    libqt6sql6-sqlite libqcustomplot-dev qt6-svg-dev
    # the default data set: /usr/share/datasets/fashion-mnist
    dataset-fashion-mnist
    # headless display for tests and screenshots; pdftotext/pdftoppm check the PDF reports
    xvfb xauth poppler-utils
    # the tests load Entrena's exports in Python, as users do; bench/'s PyTorch peer uses it too
    python3-torch python3-numpy
    # bench/sweep_bench.py's peer: Optuna (TPE with its median pruner)
    python3-optuna
    # the Debian package: man pages from --help, dpkg-shlibdeps (dpkg-dev, file) for its Depends,
    # and what packaging/check-package.sh checks it with
    help2man dpkg-dev file desktop-file-utils appstream bash-completion man-db
    # a locale with a decimal comma: the tests read numbers under es_ES as the GUI does
    locales
    # pgrep: tst_sweep checks that no trial outlives its sweep (not in a minimal Debian image)
    procps
)

say() { printf '\033[1m[entrena setup]\033[0m %s\n' "$*"; }

if [[ $(id -u) -eq 0 ]]; then
    as_root=()
elif command -v sudo >/dev/null; then
    as_root=(sudo)
else
    say "This script installs Debian packages: run it as root, or install sudo." >&2
    exit 1
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    say "All ${#packages[@]} packages are installed already."
else
    say "Installing ${#missing[@]} package(s): ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${as_root[@]}" apt-get update -q
    "${as_root[@]}" apt-get install -y -q "${missing[@]}"
fi

# Debian's LibTorch uses whatever libblas.so.3 points at; make sure that is OpenBLAS.
blas=$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || true)
case "$blas" in
    *openblas*) say "BLAS: $blas" ;;
    *)
        say "Pointing libblas.so.3 at OpenBLAS (was: ${blas:-none})"
        "${as_root[@]}" update-alternatives --set libblas.so.3-x86_64-linux-gnu \
            /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3
        ;;
esac

# es_ES.UTF-8 (decimal comma) for the locale tests; Debian generates no locale but C by default.
if ! locale -a 2>/dev/null | grep -qi '^es_ES\.utf-\?8$'; then
    say "Generating the es_ES.UTF-8 locale (for the tests)"
    "${as_root[@]}" localedef -i es_ES -c -f UTF-8 -A /usr/share/locale/locale.alias es_ES.UTF-8
fi

if [[ ! -f /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz ]]; then
    say "Fashion-MNIST is missing from /usr/share/datasets/fashion-mnist" >&2
    exit 1
fi
say "Ready. Build with: cmake --preset release && cmake --build --preset release"
