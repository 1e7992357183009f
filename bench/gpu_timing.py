"""CUDA-event timing shared by the GPU benchmark scripts.

Candidates are timed interleaved: each round runs every candidate once, and
each keeps its best round. Timing one candidate's ten runs and then the
next's let the GPU's clocks, ramping up after the allocations between pairs,
favour whichever candidate went last: the same cast kernel's bandwidth then
depended on its turn alone (docs/tuning.md, the benchmark harness).
"""


def best_times_ms(torch, fns, reps, warmup_ms=50.0):
    """Best time in milliseconds of each callable in `fns`, over `reps` rounds."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    # Keep the GPU busy for warmup_ms first, so that no candidate starts cold.
    start.record()
    while True:
        for fn in fns:
            fn()
        end.record()
        end.synchronize()
        if start.elapsed_time(end) >= warmup_ms:
            break
    best = [float("inf")] * len(fns)
    for _ in range(reps):
        for i, fn in enumerate(fns):
            start.record()
            fn()
            end.record()
            end.synchronize()
            best[i] = min(best[i], start.elapsed_time(end))
    return best
