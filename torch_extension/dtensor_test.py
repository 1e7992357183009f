"""oneflow_promote_torch.dtensor on PyTorch DTensor over torch.distributed:
two processes on 127.0.0.1 (gloo) on a 1-D mesh, and four on the 2-D mesh
[[0, 1], [2, 3]], each holding local shards; every case's full tensor must
equal the single-device answer computed from the same shards. Cases: casts
of Partial(sum), Partial(max) and Shard layouts (.to() and, under inference
mode, aten.to.dtype), add, sub, mul and true division of promoted partials,
in place too. The rules are installed once before DTensor runs anything, and
once after it has run every case (its sharding caches must not keep the old
decisions), then uninstalled. Without the rules, the int8 cast, the
promoted add and the division give DTensor 2.15's partial-through answers,
which differ (checked too, so that the test shows what the rules change).

gloo all-reduces bool, uint8, int8, int32, int64 and the floats, not int16:
the cases use those dtypes.
"""

import os
import socket
import sys

import pytest
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

WORLD = 2


def shards(rank):
    g = torch.Generator().manual_seed(rank)
    return {
        "i8": torch.tensor([100, 100, -100, 7], dtype=torch.int8) if rank == 0
        else torch.tensor([100, 100, -100, -128], dtype=torch.int8),
        "i32": torch.randint(-2**31, 2**31 - 1, (4,), generator=g, dtype=torch.int32),
        "u8": torch.randint(0, 256, (4,), generator=g).to(torch.uint8),
        "f32": torch.randn(4, generator=g) * 1e3,
    }


def single_device(case, parts):
    """The answer on one device: reduce the shards, then compute."""
    def reduced(name, op="sum"):
        values = [p[name] for p in parts]
        out = values[0]
        for v in values[1:]:
            out = out + v if op == "sum" else torch.maximum(out, v)
        return out.to(values[0].dtype)
    return {
        "int8 P(sum) -> int32": lambda: reduced("i8").to(torch.int32),
        "int32 P(sum) -> int8": lambda: reduced("i32").to(torch.int8),
        "uint8 P(max) -> float32": lambda: reduced("u8", "max").to(torch.float32),
        "float32 P(sum) -> bool": lambda: reduced("f32").to(torch.bool),
        "int8 P(sum) + int32 P(sum)": lambda: reduced("i8") + reduced("i32"),
        "int8 P(sum) * int32 R": lambda: reduced("i8") * parts[0]["i32"],
        "int32 P(sum) - int32 P(sum)": lambda: reduced("i32") - reduced("i32"),
        "int8 P(sum) / 2": lambda: reduced("i8") / 2,
        "int8 P(sum) * 3": lambda: reduced("i8") * 3,
        "int8 P(sum) -> int32 under inference mode": lambda: reduced("i8").to(torch.int32),
        "int32 P(sum) += int8 P(sum)": lambda: reduced("i32").add_(reduced("i8")),
        "int8 P(sum) *= 3": lambda: reduced("i8").mul_(3),
    }[case]()


def distributed(case, mesh, local):
    from torch.distributed.tensor import DTensor, Partial, Replicate
    # A copy per case: the in-place cases write into their DTensor.
    P = lambda name, op="sum": DTensor.from_local(  # noqa: E731
        local[name].clone(), mesh, [Partial(op)])
    return {
        "int8 P(sum) -> int32": lambda: P("i8").to(torch.int32),
        "int32 P(sum) -> int8": lambda: P("i32").to(torch.int8),
        "uint8 P(max) -> float32": lambda: P("u8", "max").to(torch.float32),
        "float32 P(sum) -> bool": lambda: P("f32").to(torch.bool),
        "int8 P(sum) + int32 P(sum)": lambda: P("i8") + P("i32"),
        "int8 P(sum) * int32 R": lambda: P("i8") * DTensor.from_local(
            shards(0)["i32"], mesh, [Replicate()]),
        "int32 P(sum) - int32 P(sum)": lambda: P("i32") - P("i32"),
        "int8 P(sum) / 2": lambda: P("i8") / 2,
        "int8 P(sum) * 3": lambda: P("i8") * 3,
        "int8 P(sum) -> int32 under inference mode": lambda: inference(
            lambda: P("i8").to(torch.int32)),
        "int32 P(sum) += int8 P(sum)": lambda: P("i32").add_(P("i8")),
        "int8 P(sum) *= 3": lambda: P("i8").mul_(3),
    }[case]()


def inference(f):
    with torch.inference_mode():
        return f()


CASES = ["int8 P(sum) -> int32", "int32 P(sum) -> int8", "uint8 P(max) -> float32",
         "float32 P(sum) -> bool", "int8 P(sum) + int32 P(sum)", "int8 P(sum) * int32 R",
         "int32 P(sum) - int32 P(sum)", "int8 P(sum) / 2", "int8 P(sum) * 3",
         "int8 P(sum) -> int32 under inference mode", "int32 P(sum) += int8 P(sum)",
         "int8 P(sum) *= 3"]

# In place, the int8 partials cannot pass into int32 arithmetic, and DTensor
# cannot reduce a partial self in place: under the rules it raises where its
# own strategy gave a wrong answer silently.
RAISES_UNDER_THE_RULES = {"int32 P(sum) += int8 P(sum)": "in-place operations that require "
                                                         "placement changes are not supported"}


SWEEP_DTYPES = [torch.uint8, torch.int8, torch.int32, torch.int64, torch.float32, torch.float64,
                torch.bool]


def sweep_parts(dtype, seed):
    """Both ranks' parts of one sweep case, the same on every rank."""
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return [torch.randint(0, 2, (6,), generator=g).bool() for _ in range(WORLD)]
    if dtype.is_floating_point:
        return [(torch.randn(6, generator=g) * 300).to(dtype) for _ in range(WORLD)]
    info = torch.iinfo(dtype)
    low, high = max(info.min, -2**62), min(info.max, 2**62)
    return [torch.randint(low, high, (6,), generator=g, dtype=torch.int64).to(dtype)
            for _ in range(WORLD)]


def placements(*names):
    """DTensor placements for names such as "S(0)", "R", "P(sum)"."""
    from torch.distributed.tensor import Partial, Replicate, Shard
    made = {"S(0)": Shard(0), "R": Replicate(), "P(sum)": Partial("sum"),
            "P(max)": Partial("max"), "P(min)": Partial("min")}
    return [made[name] for name in names]


def combine(tensors, placement):
    """What tensors laid out along one mesh dimension as `placement` stand for."""
    if placement == "S(0)":
        return torch.cat(tensors)
    if placement == "R":
        return tensors[0]
    out = tensors[0]
    for t in tensors[1:]:
        out = (out + t).to(t.dtype) if placement == "P(sum)" else (
            torch.maximum(out, t) if placement == "P(max)" else torch.minimum(out, t))
    return out


SWEEP_PLACEMENTS = ["S(0)", "R", "P(sum)", "P(max)", "P(min)"]


def sweep_cases():
    for i, (source, target) in enumerate((a, b) for a in SWEEP_DTYPES for b in SWEEP_DTYPES):
        for j, placement in enumerate(SWEEP_PLACEMENTS):
            if source == torch.bool and placement.startswith("P"):
                continue  # gloo reduces no bool partials
            yield source, target, placement, 100 * i + j


def run_sweep(rank, mesh, results, phase):
    from torch.distributed.tensor import DTensor
    mismatches = []
    for source, target, placement, seed in sweep_cases():
        parts = sweep_parts(source, seed)
        want = combine(parts, placement).to(target)
        local = parts[0] if placement == "R" else parts[rank]
        got = DTensor.from_local(local, mesh, placements(placement)).to(target).full_tensor()
        if not torch.equal(got, want):
            mismatches.append(f"{source} -> {target} as {placement} (seed {seed}): "
                              f"{got.tolist()} vs one device {want.tolist()}")
    if rank == 0:
        results[(phase, "sweep")] = mismatches


# The 2-D pass: four ranks as the mesh [[0, 1], [2, 3]], casts between every
# pair of these dtypes under each of these placements (mesh dimension 0,
# then 1), then promoted add, sub and mul of operands laid out in 2-D.
MESH_DTYPES = [torch.uint8, torch.int8, torch.int32, torch.float32, torch.float64, torch.bool]
MESH_PLACEMENTS = [("S(0)", "S(0)"), ("S(0)", "P(sum)"), ("P(sum)", "S(0)"), ("P(sum)", "P(sum)"),
                   ("R", "P(sum)"), ("P(max)", "P(max)"), ("P(min)", "R"), ("S(0)", "P(max)")]


def mesh_parts(dtype, seed, placement):
    """Local parts[i][j] of mesh coordinate (i, j), equal along replicated
    dimensions. Floats are integers below 2^20, so that any order of summing
    four of them is exact and only the cast rounds."""
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        make = lambda: torch.randint(0, 2, (4,), generator=g).bool()  # noqa: E731
    elif dtype.is_floating_point:
        make = lambda: torch.randint(-2**20, 2**20, (4,), generator=g).to(dtype)  # noqa: E731
    else:
        info = torch.iinfo(dtype)
        make = lambda: torch.randint(info.min, info.max, (4,), generator=g,  # noqa: E731
                                     dtype=torch.int64).to(dtype)
    parts = [[make() for _ in range(2)] for _ in range(2)]
    for i in range(2):
        for j in range(2):
            if placement[1] == "R":
                parts[i][j] = parts[i][0]
            if placement[0] == "R":
                parts[i][j] = parts[0][j]
    return parts


def mesh_cases():
    for i, (source, target) in enumerate((a, b) for a in MESH_DTYPES for b in MESH_DTYPES):
        for j, placement in enumerate(MESH_PLACEMENTS):
            if source == torch.bool and any(p.startswith("P") for p in placement):
                continue  # gloo reduces no bool partials
            yield source, target, placement, 100 * i + j


MESH_OPS = [(torch.add, "+"), (torch.sub, "-"), (torch.mul, "*")]
MESH_OP_DTYPES = [(torch.int8, torch.int32), (torch.uint8, torch.int32), (torch.int32, torch.float32),
                  (torch.float32, torch.float64)]
MESH_OP_LAYOUTS = [(("P(sum)", "P(sum)"), ("P(sum)", "P(sum)")), (("P(sum)", "S(0)"), ("R", "S(0)")),
                   (("S(0)", "P(sum)"), ("S(0)", "R")), (("R", "P(max)"), ("R", "P(max)"))]


def mesh_op_cases():
    """Promoted add, sub and mul of two operands with 2-D layouts. (uint8 and
    int8 promote to int16, which gloo does not reduce.)"""
    seed = 10_000
    for op in MESH_OPS:
        for dtypes in MESH_OP_DTYPES:
            for layouts in MESH_OP_LAYOUTS:
                seed += 2
                yield op, dtypes, layouts, seed


def mesh_global(parts, placement):
    """The tensor that parts[i][j] laid out as `placement` stand for: reduced
    along mesh dimension 1, then 0."""
    return combine([combine(row, placement[1]) for row in parts], placement[0])


def run_mesh(rank, mesh, results, phase, sweep=True):
    from torch.distributed.tensor import DTensor, Partial
    i, j = divmod(rank, 2)
    local = lambda parts, placement: DTensor.from_local(  # noqa: E731
        parts[i][j], mesh, placements(*placement))
    mismatches = []
    for source, target, placement, seed in mesh_cases() if sweep else ():
        parts = mesh_parts(source, seed, placement)
        want = mesh_global(parts, placement).to(target)
        got = local(parts, placement).to(target).full_tensor()
        if not torch.equal(got, want):
            mismatches.append(f"{source} -> {target} as {placement} (seed {seed}): "
                              f"{got.tolist()} vs one device {want.tolist()}")
    for (op, name), (first, second), (a_layout, b_layout), seed in (
            mesh_op_cases() if sweep else ()):
        a_parts = mesh_parts(first, seed, a_layout)
        b_parts = mesh_parts(second, seed + 1, b_layout)
        want = op(mesh_global(a_parts, a_layout), mesh_global(b_parts, b_layout))
        got = op(local(a_parts, a_layout), local(b_parts, b_layout)).full_tensor()
        if got.dtype != want.dtype or not torch.equal(got, want):
            mismatches.append(f"{first} {a_layout} {name} {second} {b_layout} (seed {seed}): "
                              f"{got.tolist()} vs one device {want.tolist()}")
    # The int8 example on the 2x2 mesh: partial sums on both dimensions.
    example = DTensor.from_local(torch.tensor([100, 50, -100], dtype=torch.int8), mesh,
                                 [Partial("sum"), Partial("sum")]).to(torch.int32).full_tensor()
    if rank == 0:
        results[(phase, "mesh")] = mismatches
        results[(phase, "mesh int8 example")] = example


def run_cases(rank, mesh, results, phase, sweep=True):
    local = shards(rank)
    for case in CASES:
        try:
            out = distributed(case, mesh, local)
            answer = (str(out.placements), out.full_tensor())
        except RuntimeError as e:
            answer = ("raised", str(e).split("\n")[0])
        if rank == 0:
            results[(phase, case)] = answer
    if sweep:
        run_sweep(rank, mesh, results, phase)


def worker(rank, port, mode, results, world):
    """mode "installed": the rules from the start; "lifecycle": DTensor's
    own strategies first, then install(), then uninstall()."""
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    try:
        from torch.distributed.device_mesh import init_device_mesh
        import oneflow_promote_torch.dtensor as rules
        mesh = init_device_mesh("cpu", (2, 2) if world == 4 else (WORLD,))
        run = run_mesh if world == 4 else run_cases
        if mode == "installed":
            rules.install()
            run(rank, mesh, results, "installed")
            return
        run(rank, mesh, results, "before")
        rules.install()
        run(rank, mesh, results, "installed")
        rules.uninstall()
        run(rank, mesh, results, "uninstalled", sweep=False)  # the cases show the restore
    finally:
        dist.destroy_process_group()


def run(mode, world=WORLD):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    manager = mp.get_context("spawn").Manager()
    results = manager.dict()
    mp.start_processes(worker, args=(port, mode, results, world), nprocs=world,
                       start_method="spawn")
    return dict(results)


def expected():
    parts = [shards(r) for r in range(WORLD)]
    return {case: single_device(case, parts) for case in CASES}


def check_single_device_answers(got, phase):
    for case, want in expected().items():
        placements, full = got[(phase, case)]
        if case in RAISES_UNDER_THE_RULES:
            assert placements == "raised" and RAISES_UNDER_THE_RULES[case] in full, (
                f"{phase}, {case}: {placements} {full}")
            continue
        assert placements != "raised", f"{phase}, {case}: {full}"
        assert full.dtype == want.dtype, case
        assert torch.equal(full, want), (
            f"{phase}, {case}: {full.tolist()} on {placements}, want {want.tolist()}")
    assert got[(phase, "sweep")] == [], "\n".join(got[(phase, "sweep")][:10])
    # Exact rules keep the partial where they can: int32 -> int8 sums wrap alike.
    assert got[(phase, "int32 P(sum) -> int8")][0] == "(Partial(sum),)"
    assert got[(phase, "int8 P(sum) * 3")][0] == "(Partial(sum),)"
    assert got[(phase, "int8 P(sum) *= 3")][0] == "(Partial(sum),)"
    assert got[(phase, "int8 P(sum) -> int32")][0] == "(Replicate(),)"


def check_dtensors_own_answers(got, phase):
    want = expected()
    wrong = [case for case in CASES
             if not (isinstance(got[(phase, case)][1], torch.Tensor)
                     and torch.equal(got[(phase, case)][1], want[case]))]
    for case in ("int8 P(sum) -> int32", "int8 P(sum) + int32 P(sum)", "int8 P(sum) / 2",
                 "int8 P(sum) -> int32 under inference mode", "int32 P(sum) += int8 P(sum)"):
        assert case in wrong, (phase, case, got[(phase, case)])
    assert got[(phase, "sweep")], "DTensor's own rules matched one device on the whole sweep"


def test_with_the_rules_dtensor_gives_single_device_answers():
    check_single_device_answers(run("installed"), "installed")


def test_installed_after_dtensor_ran_the_ops_and_uninstalled_again():
    got = run("lifecycle")
    check_dtensors_own_answers(got, "before")
    check_single_device_answers(got, "installed")
    # Uninstalled, DTensor answers as it did before install().
    for case in CASES:
        before, after = got[("before", case)][1], got[("uninstalled", case)][1]
        assert type(before) is type(after), case
        assert (before == after) if isinstance(before, str) else torch.equal(before, after), case


def test_on_a_2x2_mesh_of_four_ranks_the_rules_give_single_device_answers():
    got = run("lifecycle", world=4)
    assert got[("before", "mesh int8 example")].tolist() == [400, 200, -400]
    assert any(m.startswith("torch.int8 ('P(sum)', 'P(sum)') + torch.int32")
               for m in got[("before", "mesh")]), "\n".join(got[("before", "mesh")])
    assert got[("installed", "mesh")] == [], "\n".join(got[("installed", "mesh")][:10])
    # Four int8 partials of [100, 50, -100]: the int8 sum wraps to [-112, -56, 112].
    assert got[("installed", "mesh int8 example")].tolist() == [-112, -56, 112]
    assert got[("uninstalled", "mesh int8 example")].tolist() == [400, 200, -400]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
