"""torch.ops.oneflow_promote.add against torch.add on mixed dtypes, in one
process: the median time of each over interleaved rounds, their ratio, and
torch.add against itself (its A/A ratio, the band inside which a ratio is a
tie). Prints a Markdown table; docs/integration.md records a run.

With --per-call, the cost of one call on small tensors instead, each form
as users write it against torch's own: ops.add.Tensor by name against
aten.add.Tensor, and through the packet add(a, b), add(a, 2.5), alpha=,
out= and div with rounding_mode against torch.add and torch.div; one thread, float32 +
float32 (and int8 + float32) of 1 to 1,024 elements, in rounds that
alternate torch, ours, torch, so that drift hits both alike; CPU time of
the calling thread (on CUDA, wall time with the queue drained).
--device cuda runs either on the GPU.

With --ops, the ops whose element function is more than an instruction or
two (floor and truncating division, remainder, atan2) of one dtype with
out=, one thread, in each floating dtype; docs/tuning.md records runs.

    bazel build //torch_extension:oneflow_promote_torch/_C.so
    PYTHONPATH=torch_extension python3 torch_extension/bench_vs_torch.py [--elements N]
    PYTHONPATH=torch_extension python3 torch_extension/bench_vs_torch.py --per-call
    PYTHONPATH=torch_extension python3 torch_extension/bench_vs_torch.py --ops --elements 1048576
    ... bench_vs_torch.py --device cuda [--per-call]
"""

import argparse
import platform
import statistics
import time

import torch

import oneflow_promote_torch  # noqa: F401
from bit_judge import ulp_distance

CASES = [
    (torch.int8, torch.float32),
    (torch.int32, torch.float32),
    (torch.float16, torch.float32),
    (torch.bfloat16, torch.float64),
    (torch.float32, torch.float32),
]


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def median_seconds(fn, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def interleaved_ms(theirs, mine, rounds):
    """Medians of torch, ours and torch again, in milliseconds, timed in
    turn three times, so that drift hits both alike."""
    torch_ms, ours_ms, again_ms = [], [], []
    for _ in range(3):
        torch_ms.append(median_seconds(theirs, rounds))
        ours_ms.append(median_seconds(mine, rounds))
        again_ms.append(median_seconds(theirs, rounds))
    return (1e3 * statistics.median(x) for x in (torch_ms, ours_ms, again_ms))


def per_call_us(fn, calls, device):
    # On the CPU the thread's CPU time: on a shared machine, time spent
    # descheduled does not count against either side. On CUDA wall time,
    # the device's queue drained before and after.
    if device == "cuda":
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        return (time.perf_counter() - start) / calls * 1e6
    start = time.thread_time()
    for _ in range(calls):
        fn()
    return (time.thread_time() - start) / calls * 1e6


def per_call(rounds, calls, device):
    """Each call form as users write it, against torch's own: by overload
    name, and through the packet with out= (which torch.ops resolves by
    trying overloads in turn)."""
    torch.set_num_threads(1)
    aten, ours = torch.ops.aten, torch.ops.oneflow_promote
    where = cpu_name() if device == "cpu" else torch.cuda.get_device_name()
    print(f"torch {torch.__version__}, {where}, one thread, median of {rounds} rounds of "
          f"{calls} calls\n")
    print("| call | a | b | elements | torch us | ours us | ours / torch time | torch A/A |")
    print("|---|---|---|---|---|---|---|---|")
    for a_dtype in (torch.float32, torch.int8):
        for n in (1, 16, 64, 256, 1024):
            a = torch.randint(-100, 100, (n,)).to(a_dtype).to(device)
            b = torch.randn(n, device=device)
            o = torch.empty(n, device=device)
            forms = [
                ("add.Tensor", lambda: aten.add.Tensor(a, b), lambda: ours.add.Tensor(a, b)),
                ("add(a, b)", lambda: torch.add(a, b), lambda: ours.add(a, b)),
                ("add(a, 2.5)", lambda: torch.add(a, 2.5), lambda: ours.add(a, 2.5)),
                ("add(a, b, alpha=2)", lambda: torch.add(a, b, alpha=2),
                 lambda: ours.add(a, b, alpha=2)),
                ("add(a, b, out=o)", lambda: torch.add(a, b, out=o), lambda: ours.add(a, b, out=o)),
                ("div(a, b, rounding_mode='floor')",
                 lambda: torch.div(a, b, rounding_mode="floor"),
                 lambda: ours.div(a, b, rounding_mode="floor")),
            ]
            for label, theirs, mine in forms:
                assert torch.equal(mine(), theirs()), label
                for fn in (theirs, mine):
                    per_call_us(fn, calls, device)  # warm up
                first, own, second = [], [], []
                for _ in range(rounds):
                    first.append(per_call_us(theirs, calls, device))
                    own.append(per_call_us(mine, calls, device))
                    second.append(per_call_us(theirs, calls, device))
                t, o_us, t2 = (statistics.median(x) for x in (first, own, second))
                print(f"| {label} | {str(a_dtype)[6:]} | float32 | {n} | {t:.2f} | {o_us:.2f} | "
                      f"{o_us / t:.2f} | {t2 / t:.2f} |")


def ops(n, rounds, device):
    """Each op of one dtype with out=, ours against torch's; ours is first
    checked to give torch's bits (atan2: within 1 ulp, docs/ops.md)."""
    torch.set_num_threads(1)
    ours = torch.ops.oneflow_promote
    where = cpu_name() if device == "cpu" else torch.cuda.get_device_name()
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    print(f"torch {torch.__version__}, {where}, one thread, {n} elements, out=, median of "
          f"{rounds}\n")
    print("| op | dtype | torch ms | ours ms | ours / torch speed | torch A/A |")
    print("|---|---|---|---|---|---|")
    generator = torch.Generator().manual_seed(0)
    for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        a = (torch.randn(n, generator=generator) * 100).to(dtype).to(device)
        b = (torch.randn(n, generator=generator) * 10).to(dtype).to(device)
        out = torch.empty(n, dtype=dtype, device=device)
        forms = [
            ("div(a, b, rounding_mode='floor')",
             lambda m: m.div(a, b, rounding_mode="floor", out=out)),
            ("div(a, 3.0, rounding_mode='floor')",
             lambda m: m.div(a, 3.0, rounding_mode="floor", out=out)),
            ("div(a, b, rounding_mode='trunc')",
             lambda m: m.div(a, b, rounding_mode="trunc", out=out)),
            ("remainder(a, b)", lambda m: m.remainder(a, b, out=out)),
            ("atan2(a, b)", lambda m: m.atan2(a, b, out=out)),
        ]
        for label, call in forms:
            bound = 1 if label.startswith("atan2") else 0
            assert ulp_distance(call(torch).clone(), call(ours).clone()) <= bound, label
            t, o, t2 = interleaved_ms(lambda: (call(torch), sync()), lambda: (call(ours), sync()),
                                      rounds)
            print(f"| {label} | {str(dtype)[6:]} | {t:.2f} | {o:.2f} | {t / o:.2f}x | "
                  f"{t / t2:.2f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elements", type=int, default=1 << 24)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--per-call", action="store_true")
    parser.add_argument("--ops", action="store_true")
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    args = parser.parse_args()
    if args.per_call:
        per_call(args.rounds, args.calls, args.device)
        return
    if args.ops:
        ops(args.elements, args.rounds, args.device)
        return
    n = args.elements
    where = cpu_name() if args.device == "cpu" else torch.cuda.get_device_name()
    print(f"torch {torch.__version__}, {where}, {n} elements, median of {args.rounds}\n")
    print("| a | b | threads | torch.add ms | ours ms | ours / torch speed | torch A/A |")
    print("|---|---|---|---|---|---|---|")
    device = args.device
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    for threads in sorted({1, torch.get_num_threads()}) if device == "cpu" else [1]:
        torch.set_num_threads(threads)
        for a_dtype, b_dtype in CASES:
            a = torch.randint(-100, 100, (n,), device=device).to(a_dtype)
            b = torch.randn(n, device=device).to(b_dtype)
            result = torch.add(a, b)
            out = torch.empty_like(result)
            theirs = lambda: (torch.add(a, b, out=out), sync())  # noqa: E731
            mine = lambda: (torch.ops.oneflow_promote.add(a, b, out=out), sync())  # noqa: E731
            assert torch.equal(torch.ops.oneflow_promote.add(a, b), result)
            t, o, t2 = interleaved_ms(theirs, mine, args.rounds)
            print(f"| {str(a_dtype)[6:]} | {str(b_dtype)[6:]} | {threads} | {t:.2f} | {o:.2f} | "
                  f"{t / o:.2f}x | {t / t2:.2f} |")


if __name__ == "__main__":
    main()
