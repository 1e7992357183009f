#!/bin/bash
# Installs what building and testing oneflow_promote needs on a fresh Debian
# bookworm machine, skipping what is already there: the build's own Debian
# packages (tools/install_build_deps.sh), clang-format (the format check of
# tools/test.sh), and every Python package the tests import, at the versions
# of the lock, third_party/python/requirements.txt. It installs from the lock
# again whenever an installed version differs from it, so that a machine
# with older or newer oracles runs the same ones as a fresh machine.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

"$root"/tools/install_build_deps.sh
"$root"/tools/apt_install.sh clang-format-14

# pip brings the CUDA runtime libtorch loads (the nvidia wheels torch pins);
# no GPU is needed.
lock="$root/third_party/python/requirements.txt"
if ! drift=$(python3 "$root"/tools/python_lock.py check "$lock"); then
  echo "installing the Python lock; differs:"
  echo "$drift" | sed 's/^/  /'
  python3 -m pip install -q -r "$lock"
  python3 "$root"/tools/python_lock.py check "$lock"
fi
