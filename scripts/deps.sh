#!/usr/bin/env bash
# Installs the Debian packages mx needs, plus the packages named as arguments
# (idempotent: does nothing when they are all present). LLVM/MLIR 22 come
# from Debian bookworm's security archive.
set -euo pipefail

PACKAGES=(
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  clang-22 lld-22 build-essential cmake ninja-build ccache libgtest-dev python3
  python3-numpy  # bench/aiter_witness.py, the Python package (python/)
  python3-pytest python3-setuptools python3-pip  # python/: tests, pip install
  "$@"  # extra packages the caller needs (scripts/test.sh: chromium)
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
echo "[mx] installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
