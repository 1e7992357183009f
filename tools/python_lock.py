#!/usr/bin/env python3
"""Reads the Python lock (third_party/python/requirements.txt and the like) and
compares it with what an interpreter has installed.

  tools/python_lock.py check [LOCK]   lists each locked package whose installed
                                      version differs ("ml_dtypes: locked 0.6.0,
                                      installed 0.7.0"); exit 1 if any does

tools/install_deps.sh installs from the lock when `check` fails, and the case
file generators (tests/case_file.py) name the locked version when an oracle's
answers differ from their file."""

import importlib.metadata
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "third_party" / "python" / "requirements.txt"


def canonical(name):
    """PyPI's normalized name: ml_dtypes, ml-dtypes and ML.dtypes are one."""
    return re.sub(r"[-_.]+", "-", name).lower()


def locked(lock=LOCK):
    """{canonical name: version} of every `name==version` line."""
    pins = {}
    for raw in Path(lock).read_text().splitlines():
        text = raw.split("#")[0].strip()
        if not text:
            continue
        name, sep, version = text.partition("==")
        if not sep:
            sys.exit(f"{lock}: '{raw}' is not name==version")
        pins[canonical(name)] = version.strip()
    return pins


def installed(name):
    """The installed version without a local part (torch's +cu132), or None."""
    try:
        return importlib.metadata.version(name).split("+")[0]
    except importlib.metadata.PackageNotFoundError:
        return None


def differences(lock=LOCK):
    return [(name, version, installed(name)) for name, version in locked(lock).items()
            if installed(name) != version]


def main(argv):
    if len(argv) not in (2, 3) or argv[1] != "check":
        sys.exit(__doc__)
    lock = argv[2] if len(argv) == 3 else LOCK
    found = differences(lock)
    for name, version, have in found:
        print(f"{name}: locked {version}, installed {have or 'none'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
