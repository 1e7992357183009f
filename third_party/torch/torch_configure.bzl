"""Finds the libtorch inside PyPI's torch wheel for the oracle tests and benchmarks.

The generated repository @libtorch holds:
  //:libtorch      ATen, c10 and torch headers (system includes) and
                   libtorch_cpu.so + libc10.so, with an rpath to the wheel's lib folder;
  //:defs.bzl      TORCH_VERSION, TORCH_DIR and PYTHON, as found.

The torch package is asked of python3 on PATH, or of the interpreter named by
$ONEFLOW_PROMOTE_PYTHON. Its version must equal the pin in
third_party/python/requirements.txt (the local part, "+cu132", is ignored);
$ONEFLOW_PROMOTE_TORCH_VERSION expects another version instead, for checking
the library against a different PyTorch on purpose.

At run time libtorch_cpu.so finds the CUDA runtime it needs (libcudart.so.13,
libcupti.so.13) through its own rpath, $ORIGIN/../../nvidia/cu13/lib: the
nvidia wheels pip installs beside torch. That only works when the library is
loaded from its real folder, so the binaries link it by its resolved path
rather than through Bazel's symlinks. The rule checks with ldd that every
dependency of libtorch_cpu.so resolves.

After installing another torch into the same interpreter, `bazel sync --configure`
(or `bazel shutdown`) makes Bazel look again; changing the variables above or
the pin does so by itself.
"""

_PIN = "//third_party/python:requirements.txt"

# Prints the torch package's version and resolved folder without importing it
# (an import loads libtorch and the CUDA runtime: seconds, and a failure there
# is reported better by the ldd check below).
_FIND_TORCH = """
import importlib.util, os, sys
spec = importlib.util.find_spec("torch")
if spec is None or not spec.submodule_search_locations:
    sys.exit("no module named torch")
folder = os.path.realpath(list(spec.submodule_search_locations)[0])
namespace = {}
with open(os.path.join(folder, "version.py")) as f:
    exec(f.read(), namespace)
print(namespace["__version__"])
print(folder)
"""

# Only these folders of torch/include: the others bundle third-party headers
# (fmt, protobuf, pybind11, ...) that would shadow Debian's own, such as the fmt
# that oneflow_promote/dtype.h includes.
_INCLUDE_DIRS = ["ATen", "c10", "torch"]

_LIBS = ["libtorch_cpu.so", "libc10.so"]

def _pinned_version(repository_ctx):
    pin = repository_ctx.path(Label(_PIN))
    for line in repository_ctx.read(pin).splitlines():
        line = line.split("#")[0].strip().replace(" ", "")
        if line.startswith("torch=="):
            return line[len("torch=="):]
    fail("{} has no torch==VERSION line".format(_PIN))

def _python(repository_ctx):
    name = repository_ctx.os.environ.get("ONEFLOW_PROMOTE_PYTHON", "python3")
    if "/" in name:
        python = repository_ctx.path(name)
        if not python.exists:
            fail("ONEFLOW_PROMOTE_PYTHON={} does not exist".format(name))
        return python
    python = repository_ctx.which(name)
    if python == None:
        fail("{} is not on PATH; set ONEFLOW_PROMOTE_PYTHON to an interpreter that has torch".format(name))
    return python

def _how_to_install(python, expected, pinned):
    if expected == pinned:
        return ("Install it with `{python} -m pip install -r third_party/python/requirements.txt` " +
                "(tools/install_deps.sh does that for python3), or set ONEFLOW_PROMOTE_PYTHON " +
                "to an interpreter that has it.").format(python = python)
    return ("Install it with `{python} -m pip install torch=={expected}`, set ONEFLOW_PROMOTE_PYTHON " +
            "to an interpreter that has it, or unset ONEFLOW_PROMOTE_TORCH_VERSION to use the pin " +
            "({pinned}).").format(python = python, expected = expected, pinned = pinned)

def _torch_configure_impl(repository_ctx):
    pinned = _pinned_version(repository_ctx)
    expected = repository_ctx.os.environ.get("ONEFLOW_PROMOTE_TORCH_VERSION", pinned)
    python = _python(repository_ctx)
    wanted = ("torch=={} (pinned in third_party/python/requirements.txt)".format(pinned) if expected == pinned
              else "torch=={} (ONEFLOW_PROMOTE_TORCH_VERSION; the pin is {})".format(expected, pinned))
    install = _how_to_install(python, expected, pinned)

    found = repository_ctx.execute([python, "-c", _FIND_TORCH])
    if found.return_code != 0:
        error = found.stderr.strip().splitlines()[-1] if found.stderr.strip() else "exit {}".format(found.return_code)
        fail("\nlibtorch: {} cannot find torch ({}); the oracle tests need {}.\n{}".format(
            python,
            error,
            wanted,
            install,
        ))
    lines = found.stdout.strip().splitlines()
    version, torch_dir = lines[0], lines[1]
    base = version.split("+")[0]
    if base != expected:
        on_purpose = ("To check against {} on purpose, set ONEFLOW_PROMOTE_TORCH_VERSION={}.".format(base, base) if base != pinned
                      else "Unset ONEFLOW_PROMOTE_TORCH_VERSION to use it.")
        fail("\nlibtorch: found torch {} at {} ({}), but the oracle tests expect {}.\n{}\n{}".format(
            version,
            torch_dir,
            python,
            wanted,
            install,
            on_purpose,
        ))

    lib_dir = torch_dir + "/lib"
    for header in ["include/ATen/ATen.h", "include/torch/csrc/api/include/torch/version.h"]:
        if not repository_ctx.path(torch_dir + "/" + header).exists:
            fail("libtorch: torch {} at {} has no {}; is it a full wheel?".format(version, torch_dir, header))
    for lib in _LIBS:
        if not repository_ctx.path(lib_dir + "/" + lib).exists:
            fail("libtorch: torch {} at {} has no lib/{}".format(version, torch_dir, lib))

    # Every shared library libtorch_cpu.so needs (the CUDA runtime included)
    # must be found the way the test binaries will find it.
    ldd = repository_ctx.which("ldd")
    if ldd != None:
        result = repository_ctx.execute([ldd, lib_dir + "/libtorch_cpu.so"])
        missing = [line.strip().split(" ")[0] for line in result.stdout.splitlines() if "not found" in line]
        if missing:
            fail(("\nlibtorch: {lib}/libtorch_cpu.so needs {missing}, which are not found. " +
                  "pip installs them beside torch (the nvidia wheels, found through torch's rpath " +
                  "$ORIGIN/../../nvidia/cu13/lib); reinstall with " +
                  "`{python} -m pip install --force-reinstall -r third_party/python/requirements.txt`.").format(
                lib = lib_dir,
                missing = ", ".join(missing),
                python = python,
            ))

    for folder in _INCLUDE_DIRS:
        repository_ctx.symlink(torch_dir + "/include/" + folder, "include/" + folder)
    repository_ctx.symlink(lib_dir, "lib")

    repository_ctx.file("BUILD", """# Generated by //third_party/torch:torch_configure.bzl: torch {version} at
# {dir}, found by {python}.
package(default_visibility = ["//visibility:public"])

# Oracle and benchmark baseline only, never a dependency of the library.
# Sources that include these headers need C++20: copts = TORCH_COPTS from
# //third_party/torch:torch.bzl.
cc_library(
    name = "libtorch",
    hdrs = glob(["include/**"]),
    includes = [
        "include",
        "include/torch/csrc/api/include",
    ],
    linkopts = [
        "-L{lib}",
        "-Wl,-rpath,{lib}",
        "-ltorch_cpu",
        "-lc10",
        "-lpthread",
    ],
)
""".format(version = version, dir = torch_dir, python = python, lib = lib_dir))
    repository_ctx.file("defs.bzl", "TORCH_VERSION = \"{}\"\nTORCH_DIR = \"{}\"\nPYTHON = \"{}\"\n".format(
        version,
        torch_dir,
        python,
    ))

torch_configure = repository_rule(
    implementation = _torch_configure_impl,
    environ = [
        "ONEFLOW_PROMOTE_PYTHON",
        "ONEFLOW_PROMOTE_TORCH_VERSION",
        "PATH",
    ],
    configure = True,
    local = True,
)
