"""The PEP 517 backend of `pip install ./torch_extension`: setuptools', with
the packages of the environment being installed into importable. pip runs a
backend in an isolated environment that holds only the build requirements;
an extension must be compiled against the torch that will load it, which is
the one installed where the package goes, not a copy pip would download
into the isolated environment.
"""

import json
import os
import subprocess
import sys

# The interpreter's own search path, without pip's isolation (which works
# through these variables).
_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONNOUSERSITE")}
for _path in json.loads(subprocess.check_output(
        [sys.executable, "-c", "import json, sys; print(json.dumps(sys.path))"], env=_ENV,
        text=True)):
    if _path and _path not in sys.path:
        sys.path.append(_path)

from setuptools.build_meta import *  # noqa: E402,F401,F403  (the backend's hooks)
