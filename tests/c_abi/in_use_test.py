"""The C ABIs used as a framework's process uses them, through ctypes:
forked after threaded work (data-loader workers and process pools fork), an
output on the same memory as an input, error messages longer than the
caller's buffer, the ABI version, and a CUDA call given host memory.
"""

import ctypes
import os
import re
import signal
import sys
import time

import numpy as np
import pytest

INT8, FLOAT32, FLOAT64 = 2, 13, 14
INVALID_ARGUMENT = 3


def _runfile(path, built=True):
    """A file of the test's runfiles (Bazel), or of the source tree and
    bazel-bin when run by hand."""
    root = os.environ.get("TEST_SRCDIR")
    if root:
        return os.path.join(root, "oneflow_promote", path)
    tree = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    return os.path.join(tree, "bazel-bin", path) if built else os.path.join(tree, path)


def _load(path):
    lib = ctypes.CDLL(_runfile(path))
    lib.oneflow_promote_abi_version.restype = ctypes.c_int
    lib.oneflow_promote_last_error.restype = ctypes.c_size_t
    lib.oneflow_promote_last_error.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    return lib


CAST = _load("kernels/liboneflow_promote_cast.so")
CAST.oneflow_promote_cast.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int,
                                      ctypes.c_int64, ctypes.c_int, ctypes.c_void_p,
                                      ctypes.c_char_p, ctypes.c_size_t]
FUNCTIONAL = _load("functional/liboneflow_promote_functional.so")
FUNCTIONAL.oneflow_promote_binary_op.argtypes = [
    ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
    ctypes.c_int, ctypes.c_int64, ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
FUNCTIONAL.oneflow_promote_binary_op_on_host.argtypes = [
    ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
    ctypes.c_int, ctypes.c_int64, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
    ctypes.c_char_p, ctypes.c_size_t]


def _ptr(array):
    return array.ctypes.data


def cast(src, from_code, dst, to_code, error=None):
    error = error if error is not None else ctypes.create_string_buffer(512)
    return CAST.oneflow_promote_cast(_ptr(src), from_code, _ptr(dst), to_code, src.size, -1, None,
                                     error, len(error)), error.value.decode()


def add_on_host(a, a_code, b, b_code, out, out_code, n, threads=0):
    error = ctypes.create_string_buffer(512)
    code = FUNCTIONAL.oneflow_promote_binary_op_on_host(b"add", _ptr(a), a_code, _ptr(b), b_code,
                                                        _ptr(out), out_code, n, threads, None,
                                                        None, 0, error, len(error))
    return code, error.value.decode()


def threaded_cast_is_right():
    """2^24 float32 -> float64 on all threads (the pool wakes its workers)."""
    src = np.arange(1 << 24, dtype=np.float32) * np.float32(0.5)
    dst = np.zeros(1 << 24, dtype=np.float64)
    code, message = cast(src, FLOAT32, dst, FLOAT64)
    return code == 0 and np.array_equal(dst, src.astype(np.float64)), message


def in_forked_child(body, timeout_s=120):
    """Runs body() in a forked child; its exit status, or None if it hung."""
    pid = os.fork()
    if pid == 0:
        try:
            os._exit(0 if body() else 1)
        except BaseException:
            os._exit(2)
    deadline = time.monotonic() + timeout_s
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        time.sleep(0.01)


def test_a_forked_child_casts_and_runs_ops_after_threaded_work_in_the_parent():
    ok, message = threaded_cast_is_right()
    assert ok, message

    def child():
        ok, _ = threaded_cast_is_right()
        a = np.arange(1 << 20, dtype=np.int8)
        b = np.full(1 << 20, 0.25, dtype=np.float32)
        out = np.zeros(1 << 20, dtype=np.float32)
        code, _ = add_on_host(a, INT8, b, FLOAT32, out, FLOAT32, a.size)
        return ok and code == 0 and np.array_equal(out, a.astype(np.float32) + b)

    assert in_forked_child(child) == 0, "the child hung (None) or got wrong answers (1)"
    # The parent's pool still works after the fork.
    ok, message = threaded_cast_is_right()
    assert ok, message


def test_an_output_partly_over_an_input_is_refused_naming_both():
    n = 65536
    storage = np.zeros(4 * n, dtype=np.int8)
    a = storage[:n]
    a[:] = np.arange(n) % 100
    out = storage.view(np.float32)  # the same first byte as a, four times as long
    b = np.full(n, 0.5, dtype=np.float32)
    before = storage.copy()
    code, message = add_on_host(a, INT8, b, FLOAT32, out, FLOAT32, n)
    assert code == INVALID_ARGUMENT, message
    assert "out= (float32[65536])" in message and "operand 1 (int8[65536])" in message, message
    assert "refer to a single memory location" in message, message
    assert np.array_equal(storage, before), "a refused op must not write"


def test_an_output_exactly_over_an_input_is_in_place():
    x = np.arange(70000, dtype=np.float32)
    want = x + np.float32(2.5)
    b = np.full(x.size, 2.5, dtype=np.float32)
    code, message = add_on_host(x, FLOAT32, b, FLOAT32, x, FLOAT32, x.size)
    assert code == 0, message
    assert np.array_equal(x, want)


def test_a_cast_onto_its_own_source_is_refused():
    x = np.arange(64, dtype=np.float32)
    code, message = cast(x, FLOAT32, x.view(np.int32), 4)
    assert code == INVALID_ARGUMENT and "overlap" in message, message


def test_a_long_message_is_whole_through_last_error():
    small = ctypes.create_string_buffer(8)
    x = np.arange(64, dtype=np.float32)
    code, truncated = cast(x, FLOAT32, x[1:].copy(), 99, error=small)
    assert code == INVALID_ARGUMENT
    assert len(truncated) == 7
    length = CAST.oneflow_promote_last_error(None, 0)
    assert length > 7
    whole = ctypes.create_string_buffer(length + 1)
    assert CAST.oneflow_promote_last_error(whole, len(whole)) == length
    assert whole.value.decode().startswith(truncated)
    assert "99" in whole.value.decode(), whole.value
    # A call that succeeds leaves no message.
    assert cast(x, FLOAT32, np.zeros(64, np.float64), FLOAT64)[0] == 0
    assert CAST.oneflow_promote_last_error(None, 0) == 0


def test_the_abi_version_is_the_headers():
    with open(_runfile("oneflow_promote/c_api/c_abi.h", built=False)) as header:
        version = int(re.search(r"#define ONEFLOW_PROMOTE_ABI_VERSION (\d+)", header.read()).group(1))
    assert CAST.oneflow_promote_abi_version() == version
    assert FUNCTIONAL.oneflow_promote_abi_version() == version


def test_a_cuda_call_given_host_memory_is_an_error_not_a_crash():
    a = np.ones(16, dtype=np.float32)
    out = np.zeros(16, dtype=np.float32)
    error = ctypes.create_string_buffer(512)
    code = FUNCTIONAL.oneflow_promote_binary_op(b"add", _ptr(a), FLOAT32, _ptr(a), FLOAT32,
                                                _ptr(out), FLOAT32, a.size, 0, 0, error,
                                                len(error))
    message = error.value.decode()
    assert code != 0, "host pointers accepted as device memory"
    if "not memory of CUDA device 0" not in message:
        # No GPU or no CUDA here: the same call must say so.
        assert "CUDA" in message, message
    else:
        assert message.startswith("operand a"), message
    # The process, and its CUDA context where there is one, still works.
    assert cast(a, FLOAT32, np.zeros(16, np.float64), FLOAT64)[0] == 0


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
