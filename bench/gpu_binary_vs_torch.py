#!/usr/bin/env python3
"""GPU mixed-dtype binary ops: oneflow_promote's functional frontend against
PyTorch on the same GPU, in one process, timed with CUDA events.

For each operand pair (a mixed-dtype add, and a same-dtype control), at N
elements, with the result written into a preallocated tensor (out=):
  ours       oneflow_promote_binary_op("add", ...) through the C ABI, cast
             path auto: the promotion decision, then one CUDA add that
             converts each operand as it reads it (fused casts)
  ours materialized  the same with cast path materialized: cast kernels
             into temporaries where the dtypes differ, then the same-dtype add
  torch_add  torch.add(a, b, out=c)
  d2d        a device-to-device copy moving the same bytes (a, b read; c written)
Throughput counts bytes of a + b + c. Prints a Markdown table and writes JSON.
The library is //functional:liboneflow_promote_functional.so.

  python3 bench/gpu_binary_vs_torch.py LIB.so [--elements N] [--json OUT.json]
  python3 bench/gpu_binary_vs_torch.py LIB.so --check-cpu   # no GPU or torch needed
"""

import argparse
import ctypes
import json
import sys

# Positions in oneflow_promote's dtype list (kernels/cast_c_api.h), by name.
CODES = {"bool": 0, "uint8": 1, "int8": 2, "int16": 3, "int32": 4, "int64": 5, "float16": 11,
         "bfloat16": 12, "float32": 13, "float64": 14, "complex64": 16, "complex128": 17}

# (a, b, result): what frontends mix most, and a control that needs no cast.
CASES = [("int8", "float32", "float32"), ("uint8", "float32", "float32"),
         ("int32", "float32", "float32"), ("int64", "float32", "float32"),
         ("float16", "float32", "float32"), ("bfloat16", "float32", "float32"),
         ("float32", "float64", "float64"), ("int32", "int64", "int64"),
         ("float32", "float32", "float32")]


def load(lib_path):
    lib = ctypes.CDLL(lib_path)
    lib.oneflow_promote_binary_op.argtypes = [
        ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int,
        ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int, ctypes.c_int,
        ctypes.c_char_p, ctypes.c_size_t]
    error = ctypes.create_string_buffer(512)

    def binary_op(op, a, a_dtype, b, b_dtype, out, out_dtype, n, cuda_ordinal, cast_path=0):
        code = lib.oneflow_promote_binary_op(op.encode(), a, CODES[a_dtype], b, CODES[b_dtype], out,
                                             CODES[out_dtype], n, cuda_ordinal, cast_path, error, 512)
        if code != 0:
            raise RuntimeError(f"{op}({a_dtype}, {b_dtype}) -> {out_dtype}: {error.value.decode()}")

    return binary_op


def check_cpu(binary_op):
    """The C ABI on host memory against NumPy and ml_dtypes (each operand
    widened exactly to the result dtype, then added), every cast path."""
    import ml_dtypes
    import numpy as np
    numpy_dtype = lambda s: ml_dtypes.bfloat16 if s == "bfloat16" else np.dtype(s)
    rng = np.random.default_rng(1)
    n = 100_003
    for a_name, b_name, out_name in CASES:
        a = rng.uniform(-100, 100, n).astype(numpy_dtype(a_name))
        b = rng.uniform(-100, 100, n).astype(numpy_dtype(b_name))
        expected = np.add(a.astype(out_name), b.astype(out_name))
        for cast_path in (0, 1, 2):
            out = np.empty(n, dtype=out_name)
            binary_op("add", a.ctypes.data, a_name, b.ctypes.data, b_name, out.ctypes.data, out_name,
                      n, -1, cast_path)
            if not np.array_equal(out, expected):
                bad = int(np.flatnonzero(out != expected)[0])
                raise AssertionError(f"{a_name}+{b_name} path {cast_path} element {bad}: "
                                     f"{out[bad]} != {expected[bad]}")
    try:
        int8s = np.empty(n, dtype=np.int8)
        binary_op("add", a.ctypes.data, "float32", a.ctypes.data, "float32", int8s.ctypes.data,
                  "int8", n, -1)
        raise AssertionError("float32 result into an int8 out= was accepted")
    except RuntimeError as e:
        if "can't be cast" not in str(e):
            raise
    try:
        binary_op("add", None, "float32", a.ctypes.data, "float32", a.ctypes.data, "float32", n, -1)
        raise AssertionError("a null operand was accepted")
    except RuntimeError as e:
        if "operand a" not in str(e) or "null" not in str(e):
            raise
    print(f"C ABI on the CPU agrees with NumPy on {len(CASES)} dtype pairs x 3 cast paths")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lib")
    parser.add_argument("--elements", type=int, default=256 << 20)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--json")
    parser.add_argument("--check-cpu", action="store_true")
    args = parser.parse_args()
    binary_op = load(args.lib)
    if args.check_cpu:
        check_cpu(binary_op)
        return 0

    import torch
    from gpu_timing import best_times_ms
    n = args.elements
    name = torch.cuda.get_device_name()
    print(f"# {name}, torch {torch.__version__}, {n} elements, best of {args.reps} interleaved rounds")
    print("| a | b | out | ours GB/s | ours materialized GB/s | torch add GB/s | d2d GB/s | "
          "ours / torch | ours / d2d |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    for a_name, b_name, out_name in CASES:
        dtype = lambda s: getattr(torch, s)
        a = torch.empty(n, device="cuda").uniform_(-100, 100).to(dtype(a_name))
        b = torch.empty(n, device="cuda").uniform_(-100, 100).to(dtype(b_name))
        c = torch.empty(n, device="cuda", dtype=dtype(out_name))
        expected = torch.add(a, b)
        binary_op("add", a.data_ptr(), a_name, b.data_ptr(), b_name, c.data_ptr(), out_name, n, 0)
        torch.cuda.synchronize()
        if expected.dtype != c.dtype or not torch.equal(c, expected):
            raise AssertionError(f"{a_name}+{b_name}: ours differs from torch.add")
        moved = n * (a.element_size() + b.element_size() + c.element_size())
        src = torch.empty(moved // 2, device="cuda", dtype=torch.uint8)
        dst = torch.empty(moved // 2, device="cuda", dtype=torch.uint8)
        run = lambda cast_path: binary_op("add", a.data_ptr(), a_name, b.data_ptr(), b_name,
                                          c.data_ptr(), out_name, n, 0, cast_path)
        t_ours, t_materialized, t_torch, t_d2d = best_times_ms(
            torch, [lambda: run(0), lambda: run(1), lambda: torch.add(a, b, out=c),
                    lambda: dst.copy_(src)], args.reps)
        gbs = lambda t: moved / (t * 1e-3) / 1e9
        row = dict(a=a_name, b=b_name, out=out_name, ours=gbs(t_ours),
                   ours_materialized=gbs(t_materialized), torch_add=gbs(t_torch), d2d=gbs(t_d2d))
        rows.append(row)
        print(f"| {a_name} | {b_name} | {out_name} | {row['ours']:.0f} | "
              f"{row['ours_materialized']:.0f} | {row['torch_add']:.0f} | {row['d2d']:.0f} | "
              f"{t_torch / t_ours:.2f} | {t_d2d / t_ours:.2f} |", flush=True)
        del a, b, c, expected, src, dst
        torch.cuda.empty_cache()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(device=name, torch=torch.__version__, elements=n, rows=rows), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
