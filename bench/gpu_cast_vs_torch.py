#!/usr/bin/env python3
"""GPU cast throughput: oneflow_promote's CUDA kernel against PyTorch on the
same GPU, in one process, timed with CUDA events.

For every pair of the 13 dtypes both libraries have, at N elements:
  ours       oneflow_promote_cast() through the C ABI, into a preallocated tensor
  torch_to   src.to(dtype)  (allocates its output, as frontends call it)
  torch_copy dst.copy_(src) (PyTorch's cast kernel into a preallocated tensor)
  d2d        a device-to-device copy moving the same bytes (reads + writes)
timed in interleaved rounds (gpu_timing.py). Throughput counts bytes read
plus bytes written. Prints a Markdown table and
writes JSON.

  python3 bench/gpu_cast_vs_torch.py LIB.so [--elements N] [--json OUT.json]
"""

import argparse
import ctypes
import json
import sys

import torch

from gpu_timing import best_times_ms

# Positions in oneflow_promote's dtype list (kernels/cast_c_api.h).
CODES = {torch.bool: 0, torch.uint8: 1, torch.int8: 2, torch.int16: 3, torch.int32: 4,
         torch.int64: 5, torch.float16: 11, torch.bfloat16: 12, torch.float32: 13,
         torch.float64: 14, torch.complex32: 15, torch.complex64: 16, torch.complex128: 17}


def make_source(dtype, n):
    base = torch.empty(n, device="cuda", dtype=torch.float32).uniform_(-100, 100)
    if dtype == torch.bool:
        return base > 0
    if dtype.is_complex:
        real = base.to(torch.float64)
        return torch.complex(real, -real).to(dtype) if dtype != torch.complex32 else \
            torch.complex(base.half(), base.half())
    return base.to(dtype)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("lib")
    parser.add_argument("--elements", type=int, default=256 << 20)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--json")
    args = parser.parse_args()

    lib = ctypes.CDLL(args.lib)
    lib.oneflow_promote_cast.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                                         ctypes.c_int, ctypes.c_int64, ctypes.c_int,
                                         ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    error = ctypes.create_string_buffer(512)
    n = args.elements
    name = torch.cuda.get_device_name()
    print(f"# {name}, torch {torch.__version__}, {n} elements, best of {args.reps} interleaved rounds")
    print("| from | to | ours GB/s | torch .to GB/s | torch copy_ GB/s | d2d copy GB/s | "
          "ours / d2d | ours / .to | ours / copy_ |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    dtypes = list(CODES)
    for src_dtype in dtypes:
        src = make_source(src_dtype, n)
        for dst_dtype in dtypes:
            if dst_dtype == src_dtype:
                continue
            dst = torch.empty(n, device="cuda", dtype=dst_dtype)
            stream = torch.cuda.current_stream().cuda_stream

            def ours():
                code = lib.oneflow_promote_cast(src.data_ptr(), CODES[src_dtype], dst.data_ptr(),
                                                CODES[dst_dtype], n, 0, stream, error, 512)
                if code != 0:
                    raise RuntimeError(error.value.decode())

            moved = n * (src.element_size() + dst.element_size())
            half = moved // 2
            a = torch.empty(half, device="cuda", dtype=torch.uint8)
            b = torch.empty(half, device="cuda", dtype=torch.uint8)
            t_ours, t_to, t_copy, t_d2d = best_times_ms(
                torch, [ours, lambda: src.to(dst_dtype), lambda: dst.copy_(src),
                        lambda: b.copy_(a)], args.reps)
            gbs = lambda t: moved / (t * 1e-3) / 1e9
            row = dict(src=str(src_dtype)[6:], dst=str(dst_dtype)[6:], ours=gbs(t_ours),
                       torch_to=gbs(t_to), torch_copy=gbs(t_copy), d2d=gbs(t_d2d))
            rows.append(row)
            print(f"| {row['src']} | {row['dst']} | {row['ours']:.0f} | {row['torch_to']:.0f} | "
                  f"{row['torch_copy']:.0f} | {row['d2d']:.0f} | {t_d2d / t_ours:.2f} | "
                  f"{t_to / t_ours:.2f} | {t_copy / t_ours:.2f} |", flush=True)
            del dst, a, b
        del src
        torch.cuda.empty_cache()
    worst_d2d = min(r["ours"] / r["d2d"] for r in rows)
    worst_to = min(r["ours"] / r["torch_to"] for r in rows)
    worst_copy = min(r["ours"] / r["torch_copy"] for r in rows)
    print(f"\nworst pair: ours/d2d {worst_d2d:.2f}, ours/.to {worst_to:.2f}, "
          f"ours/copy_ {worst_copy:.2f} over {len(rows)} pairs")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(device=name, torch=torch.__version__, elements=n, rows=rows), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
