"""Wave-op lowering: every intrinsic and pattern, run on the primitive model.

For each kernel ``out[i] = WaveOp(in[i])`` the IR interpreter runs the module as
written (the wave op through the intrinsic model) and lowered and dpp-combined
(the primitives through the primitive model); both must equal the intrinsic model
on the lanes HLSL defines, in wave32 and wave64, with a full exec mask, every third
lane off, random masks and a single lane, for int, uint and float data, and once
more inside a divergent branch. Golden IR pins the shape of the main sequences.
"""

from textwrap import dedent

import numpy as np
import pytest

from shc.compiler.ir.core import Module
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.ir.ops import LANE_EXCHANGE, WAVE_OPS, Op
from shc.compiler.ir.printer import print_module
from shc.compiler.ir.reader import read_module
from shc.compiler.ir.verify import verify
from shc.compiler.passes.dead_code import DeadCode
from shc.compiler.passes.dpp_combine import DppCombine
from shc.compiler.passes.lower_wave_ops import LowerWaveOps
from shc.compiler.machine import wavemodel as wm

WAVE_SIZES = (32, 64)
DTYPES = {"bool": np.bool_, "int": np.int32, "uint": np.uint32, "float": np.float32, "half": np.float16}
# Buffer element dtypes (a bool is stored as a 32-bit word).
BUFFER_DTYPES = {**DTYPES, "bool": np.uint32}


def split_type(name: str) -> tuple[str, int]:
    """``float4`` -> ("float", 4); ``uint`` -> ("uint", 1)."""
    base = name.rstrip("1234")
    return base, int(name[len(base):] or 1)


def per_component(model):
    """An intrinsic model applied to each column of an (W, n) input; lanes are defined where
    every component is."""
    def vector_model(values, exec_lanes, aux):
        if values.ndim == 1:
            return model(values, exec_lanes, aux)
        results = [model(values[:, c], exec_lanes, aux) for c in range(values.shape[1])]
        defined = np.logical_and.reduce([result.defined for result in results])
        return wm.WaveResult(np.stack([result.values for result in results], axis=1), defined)
    return vector_model


# --------------------------------------------------------------------------------------
# Kernels and the comparison
# --------------------------------------------------------------------------------------


def kernel(wave_size: int, body: str, in_type: str = "uint", out_type: str = "uint",
           in_branch: bool = False) -> str:
    """``out[i] = <body>(in[i])``: %1 is in[i], %2 is aux[i], %3 is aux[0]; the body defines %9.

    ``in_branch`` puts the body and the store under ``if (sel[i] != 0)``.
    """
    head = dedent(f"""
        resource @inp RWStructuredBuffer<{in_type}> u0 space0
        resource @aux RWStructuredBuffer<uint> u1 space0
        resource @out RWStructuredBuffer<{out_type}> u2 space0
        resource @sel RWStructuredBuffer<uint> u3 space0
        func @main numthreads({wave_size}, 1, 1) wave{wave_size} {{
        ^entry:
          %0 = thread_input uint {{which="group_index"}}
          %1 = buffer_load {in_type} %0 {{resource="inp"}}
          %2 = buffer_load uint %0 {{resource="aux"}}
          %4 = const uint {{value=0}}
          %3 = buffer_load uint %4 {{resource="aux"}}
        """)
    if in_branch:
        head += dedent("""
          %100 = buffer_load uint %0 {resource="sel"}
          %101 = ne bool %100, %4
          selection ^merge
          cond_br %101, ^then, ^merge
        ^then:
        """).lstrip("\n")
    body = "".join(f"  {line}\n" for line in dedent(body).strip("\n").splitlines())
    tail = '  buffer_store %0, %9 {resource="out"}\n'
    tail += "  br ^merge\n^merge:\n  ret\n}\n" if in_branch else "  ret\n}\n"
    return head + body + tail


def run(module: Module, exec_lanes: np.ndarray, buffers: dict) -> np.ndarray:
    return run_wave(module, len(exec_lanes), exec_lanes, buffers=buffers).buffers["out"]


def lower(text: str, wave_size: int, combine: bool = True) -> Module:
    module = read_module(text)
    verify(module.function)
    LowerWaveOps(wave_size).run(module)
    verify(module.function)
    if combine:
        DppCombine().run(module)
        DeadCode().run(module)
        verify(module.function)
    assert not any(inst.op in WAVE_OPS for inst in module.function.instructions())
    return module


def exec_masks(wave_size: int):
    lanes = np.arange(wave_size)
    rng = np.random.default_rng(wave_size)
    yield "full", np.ones(wave_size, bool)
    yield "every-third-off", lanes % 3 != 2
    for index in range(3):
        yield f"random{index}", rng.random(wave_size) < 0.6
    yield "one-lane", lanes == 37 % wave_size


def inputs(in_type: str, wave_size: int, rng, small: bool = False) -> np.ndarray:
    base, components = split_type(in_type)
    shape = (wave_size,) if components == 1 else (wave_size, components)
    if base in ("float", "half"):
        low, high = (0.8, 1.25) if small else (-100.0, 100.0)
        return rng.uniform(low, high, shape).astype(DTYPES[base])
    if base == "int":
        return rng.integers(-4 if small else -(1 << 30), 5 if small else 1 << 30, shape).astype(np.int32)
    return rng.integers(0, 5 if small else 1 << 32, shape, dtype=np.uint64).astype(np.uint32)


def check(body, model, wave_size, in_type="uint", out_type=None, aux=None, small=False, combine=True, values=None):
    """Run the kernel as written, lowered, and lowered inside a divergent branch, under each
    exec mask; each must equal ``model(values, exec, aux)`` on the lanes HLSL defines."""
    out_type = out_type or in_type
    original = read_module(kernel(wave_size, body, in_type, out_type))
    lowered = lower(kernel(wave_size, body, in_type, out_type), wave_size, combine)
    in_branch = lower(kernel(wave_size, body, in_type, out_type, in_branch=True), wave_size, combine)
    rng = np.random.default_rng(1234)
    out_base, out_components = split_type(out_type)
    tolerance = {"float": {"rtol": 1e-4, "atol": 1e-3}, "half": {"rtol": 1e-2, "atol": 1e-1}}.get(out_base, {})
    model = per_component(model)
    for name, exec_lanes in exec_masks(wave_size):
        data = values(rng) if values else inputs(in_type, wave_size, rng, small)
        aux_data = aux(rng) if aux else rng.integers(0, wave_size, wave_size).astype(np.uint32)
        selected = (rng.random(wave_size) < 0.7).astype(np.uint32)
        out_shape = (wave_size,) if out_components == 1 else (wave_size, out_components)
        buffers = {"inp": data, "aux": aux_data, "sel": selected,
                   "out": np.zeros(out_shape, dtype=BUFFER_DTYPES[out_base])}
        runs = [("as written", original, exec_lanes), ("lowered", lowered, exec_lanes),
                ("lowered in a branch", in_branch, exec_lanes & (selected != 0))]
        for label, module, lanes in runs:
            got = run(module, exec_lanes, buffers)
            got = got != 0 if out_base == "bool" else got
            expected = model(data, lanes, aux_data)
            bad = wm.mismatched_lanes(got, expected, **tolerance)
            assert len(bad) == 0, (f"{label}, wave{wave_size} exec={name}: lanes {bad.tolist()} got "
                                   f"{got[bad].tolist()} want {expected.values[bad].tolist()}")
    return lowered


# --------------------------------------------------------------------------------------
# Reductions and scans
# --------------------------------------------------------------------------------------

REDUCTIONS = [(fn, t) for fn in ("sum", "product", "min", "max") for t in ("int", "uint", "float")]
REDUCTIONS += [(fn, t) for fn in ("and", "or", "xor") for t in ("int", "uint")]


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("fn, in_type", REDUCTIONS)
def test_wave_active(wave_size, fn, in_type):
    check(f'%9 = wave_active {in_type} %1 {{fn="{fn}"}}',
          lambda v, e, _: wm.wave_active(fn, v, e), wave_size, in_type, small=fn == "product")


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("fn, in_type", [(fn, t) for fn in ("sum", "product") for t in ("int", "uint", "float")])
def test_wave_prefix(wave_size, fn, in_type):
    check(f'%9 = wave_prefix {in_type} %1 {{fn="{fn}"}}',
          lambda v, e, _: wm.wave_prefix(fn, v, e), wave_size, in_type, small=fn == "product")


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("combine", [False, True])
def test_float_min_max_identity_is_infinity(wave_size, combine):
    """Lanes holding +-inf must survive: the identity is an infinity, not FLT_MAX."""
    infinities = lambda rng: np.where(rng.random(wave_size) < 0.5, np.inf, -np.inf).astype(np.float32)
    for fn in ("min", "max"):
        check(f'%9 = wave_active float %1 {{fn="{fn}"}}', lambda v, e, _: wm.wave_active(fn, v, e),
              wave_size, "float", values=infinities, combine=combine)


# --------------------------------------------------------------------------------------
# Quad reads, shuffles, WaveReadLaneAt
# --------------------------------------------------------------------------------------

QUAD_LANES = {"X": [1, 0, 3, 2], "Y": [2, 3, 0, 1], "Diagonal": [3, 2, 1, 0]}


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("in_type", ["uint", "float"])
@pytest.mark.parametrize("direction", QUAD_LANES)
def test_quad_read_across(wave_size, in_type, direction):
    model = wm.HLSL_INTRINSICS[f"QuadReadAcross{direction}"]
    check(f"%9 = quad_read {in_type} %1 {{lanes={QUAD_LANES[direction]}}}",
          lambda v, e, _: model(v, e), wave_size, in_type)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("k", range(4))
def test_quad_read_lane_at_constant(wave_size, k):
    module = check(f"%8 = const uint {{value={k}}}\n%9 = quad_read_lane_at float %1, %8",
                   lambda v, e, _: wm.quad_read_lane_at(v, e, k), wave_size, "float")
    assert f'ctrl="quad_perm:[{k},{k},{k},{k}]"' in print_module(module)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_quad_read_lane_at_divergent(wave_size):
    module = check("%9 = quad_read_lane_at int %1, %2",
                   lambda v, e, aux: wm._read_lanes(v, e, (np.arange(wave_size) & ~3) | (aux & 3)),
                   wave_size, "int", aux=lambda rng: rng.integers(0, 4, wave_size).astype(np.uint32))
    assert "ds_bpermute" in print_module(module)


# (lane & ~3) | k, (lane & ~3) + k, k | (~3 & lane), through int conversions and unfolded constants:
# the SPD header's form.
QUAD_PATTERNS = {
    "or": "%5 = wave_lane_index uint\n%6 = const uint {{value=4294967292}}\n%7 = and uint %5, %6\n"
          "%8 = const uint {{value={k}}}\n%10 = or uint %7, %8",
    "add": "%5 = wave_lane_index uint\n%6 = const uint {{value=4294967292}}\n%7 = and uint %5, %6\n"
           "%8 = const uint {{value={k}}}\n%10 = add uint %7, %8",
    "unfolded-not-3": "%5 = wave_lane_index uint\n%13 = const int {{value=3}}\n%14 = not int %13\n"
                      "%6 = convert uint %14\n%7 = and uint %5, %6\n%8 = const uint {{value={k}}}\n"
                      "%10 = or uint %7, %8",
    "swapped-int": "%5 = wave_lane_index uint\n%11 = bitcast int %5\n%6 = const int {{value=-4}}\n"
                   "%7 = and int %6, %11\n%8 = const int {{value={k}}}\n%12 = or int %8, %7\n"
                   "%10 = bitcast uint %12",
}


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("pattern", QUAD_PATTERNS)
@pytest.mark.parametrize("k", range(4))
def test_read_lane_at_quad_pattern_is_quad_perm(wave_size, pattern, k):
    body = QUAD_PATTERNS[pattern].format(k=k) + "\n%9 = wave_read_lane_at float %1, %10"
    module = check(body, lambda v, e, _: wm.quad_read_lane_at(v, e, k), wave_size, "float")
    text = print_module(module)
    assert f'ctrl="quad_perm:[{k},{k},{k},{k}]"' in text
    assert "ds_bpermute" not in text and "readlane" not in text


XOR_MASKS = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 63]
XOR_PRIMITIVE = [(4, "quad_perm"), (8, "dpp8"), (16, "row_xmask"), (17, "permlanex16"), (32, "ds_bpermute"),
                 (64, "lds_exchange")]


def xor_primitive(mask: int) -> str:
    return next(name for bound, name in XOR_PRIMITIVE if mask < bound)


# Only masks whose partner lane is inside the wave: lane ^ 32 does not exist in wave32.
@pytest.mark.parametrize("wave_size, mask", [(w, m) for w in WAVE_SIZES for m in XOR_MASKS if m < w])
@pytest.mark.parametrize("form", ["shuffle", "read_lane_at"])
def test_shuffle_xor_constant(wave_size, mask, form):
    if form == "shuffle":
        body = f"%8 = const uint {{value={mask}}}\n%9 = wave_shuffle_xor int %1, %8"
    else:
        body = f"%5 = wave_lane_index uint\n%8 = const uint {{value={mask}}}\n%10 = xor uint %8, %5\n" \
               "%9 = wave_read_lane_at int %1, %10"
    module = check(body, lambda v, e, _: wm.wave_shuffle_xor(v, e, mask), wave_size, "int")
    text = print_module(module)
    assert xor_primitive(mask) in text
    if mask < 32:
        assert "lds_exchange" not in text  # stays inside the 32-lane half


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_shuffle_xor_dynamic_mask(wave_size):
    """A mask read from memory: ds_bpermute of lane ^ m, plus the wave64 cross-half fix."""
    masks = lambda rng: np.full(wave_size, rng.integers(0, wave_size), dtype=np.uint32)
    check("%9 = wave_shuffle_xor float %1, %3", lambda v, e, aux: wm.wave_shuffle_xor(v, e, int(aux[0])),
          wave_size, "float", aux=masks)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("in_type", ["int", "float"])
def test_read_lane_at_uniform_index_is_readlane(wave_size, in_type):
    for lane in (0, 5, wave_size - 1):
        module = check(f"%8 = const uint {{value={lane}}}\n%9 = wave_read_lane_at {in_type} %1, %8",
                       lambda v, e, _: wm.wave_read_lane_at(v, e, lane), wave_size, in_type)
        assert "readlane" in print_module(module) and "ds_bpermute" not in print_module(module)
    # uniform but not constant: aux[0]
    module = check(f"%9 = wave_read_lane_at {in_type} %1, %3",
                   lambda v, e, aux: wm.wave_read_lane_at(v, e, int(aux[0])), wave_size, in_type)
    assert "readlane" in print_module(module)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("in_type", ["int", "uint", "float"])
def test_read_lane_at_divergent_index(wave_size, in_type):
    module = check(f"%9 = wave_read_lane_at {in_type} %1, %2",
                   lambda v, e, aux: wm.wave_read_lane_at(v, e, aux), wave_size, in_type)
    text = print_module(module)
    assert "ds_bpermute" in text
    assert ("lds_exchange" in text) == (wave_size == 64)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_read_lane_at_divergent_int_index(wave_size):
    check("%8 = bitcast int %2\n%9 = wave_read_lane_at float %1, %8",
          lambda v, e, aux: wm.wave_read_lane_at(v, e, aux), wave_size, "float")


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("in_type", ["int", "float"])
def test_read_lane_first(wave_size, in_type):
    check(f"%9 = wave_read_first {in_type} %1", lambda v, e, _: wm.wave_read_lane_first(v, e),
          wave_size, in_type)


# --------------------------------------------------------------------------------------
# The ballot family, lane index and count
# --------------------------------------------------------------------------------------

CONDITION = "%7 = const uint {value=0}\n%8 = ne bool %1, %7\n"


def sparse(wave_size):
    return lambda rng: (rng.random(wave_size) < 0.3).astype(np.uint32)


def dense(wave_size):
    return lambda rng: (rng.random(wave_size) < 0.97).astype(np.uint32)


BALLOT_CASES = {
    "WaveActiveBallot": ("%9 = wave_ballot uint4 %8", "uint4"),
    "WaveActiveCountBits": ("%9 = wave_count_bits uint %8", "uint"),
    "WavePrefixCountBits": ("%9 = wave_prefix_count_bits uint %8", "uint"),
    "WaveActiveAnyTrue": ("%9 = wave_any_true bool %8", "bool"),
    "WaveActiveAllTrue": ("%9 = wave_all_true bool %8", "bool"),
}


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("intrinsic", BALLOT_CASES)
@pytest.mark.parametrize("density", [sparse, dense])
def test_ballot_family(wave_size, intrinsic, density):
    body, out_type = BALLOT_CASES[intrinsic]
    model = wm.HLSL_INTRINSICS[intrinsic]
    check(CONDITION + body, lambda v, e, _: model(v != 0, e), wave_size, "uint", out_type,
          values=density(wave_size))


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("in_type", ["int", "float"])
def test_all_equal(wave_size, in_type):
    body = "%9 = wave_all_equal bool %1"
    few_values = lambda rng: rng.integers(0, 2, wave_size).astype(DTYPES[in_type])
    one_value = lambda rng: np.full(wave_size, 7, dtype=DTYPES[in_type])
    for values in (few_values, one_value):
        check(body, lambda v, e, _: wm.wave_active_all_equal(v, e), wave_size, in_type, "bool", values=values)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_lane_index_count_and_first_lane(wave_size):
    check("%9 = wave_lane_index uint", lambda v, e, _: wm.wave_get_lane_index(e), wave_size)
    check("%9 = wave_lane_count uint", lambda v, e, _: wm.wave_get_lane_count(e), wave_size)
    check("%9 = wave_is_first_lane bool", lambda v, e, _: wm.wave_is_first_lane(e), wave_size, "uint", "bool")


# --------------------------------------------------------------------------------------
# Vectors, and the shape of the sequences
# --------------------------------------------------------------------------------------


VECTOR_CASES = {
    "WaveActiveSum float4": ('%9 = wave_active float4 %1 {fn="sum"}', "float4", "float4",
                             lambda v, e, _: wm.wave_active("sum", v, e)),
    "WaveActiveMax int3": ('%9 = wave_active int3 %1 {fn="max"}', "int3", "int3",
                           lambda v, e, _: wm.wave_active("max", v, e)),
    "WavePrefixSum float2": ('%9 = wave_prefix float2 %1 {fn="sum"}', "float2", "float2",
                             lambda v, e, _: wm.wave_prefix("sum", v, e)),
    "QuadReadAcrossX float4": ("%9 = quad_read float4 %1 {lanes=[1, 0, 3, 2]}", "float4", "float4",
                               lambda v, e, _: wm.quad_read_across_x(v, e)),
    "WaveShuffleXor uint2 16": ("%8 = const uint {value=16}\n%9 = wave_shuffle_xor uint2 %1, %8", "uint2", "uint2",
                                lambda v, e, _: wm.wave_shuffle_xor(v, e, 16)),
    "WaveReadLaneAt float3 divergent": ("%9 = wave_read_lane_at float3 %1, %2", "float3", "float3",
                                        lambda v, e, aux: wm.wave_read_lane_at(v, e, aux)),
    "WaveActiveAllEqual float2": ("%9 = wave_all_equal bool2 %1", "float2", "bool2",
                                  lambda v, e, _: wm.wave_active_all_equal(v, e)),
}


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("case", VECTOR_CASES)
def test_vectors(wave_size, case):
    body, in_type, out_type, model = VECTOR_CASES[case]
    values = None
    if "AllEqual" in case:
        values = lambda rng: rng.integers(0, 2, (wave_size, 2)).astype(np.float32)
    check(body, model, wave_size, in_type, out_type, values=values)


HALF_CASES = {
    "sum": ('%9 = wave_active half %1 {fn="sum"}', lambda v, e, _: wm.wave_active("sum", v, e)),
    "min": ('%9 = wave_active half %1 {fn="min"}', lambda v, e, _: wm.wave_active("min", v, e)),
    "max": ('%9 = wave_active half %1 {fn="max"}', lambda v, e, _: wm.wave_active("max", v, e)),
    "prefix sum": ('%9 = wave_prefix half %1 {fn="sum"}', lambda v, e, _: wm.wave_prefix("sum", v, e)),
    "quad read": ("%9 = quad_read half %1 {lanes=[3, 2, 1, 0]}", lambda v, e, _: wm.quad_read_across_diagonal(v, e)),
}


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("case", HALF_CASES)
def test_16_bit_values_stay_16_bit(wave_size, case):
    body, model = HALF_CASES[case]
    small = lambda rng: rng.uniform(-2, 2, wave_size).astype(np.float16)
    module = check(body, model, wave_size, "half", values=small)
    assert all(str(inst.type) != "float" for inst in module.function.instructions())


def test_vector_values_are_lowered_on_the_vector_type():
    module = lower(kernel(32, "%9 = wave_active float4 %1 {fn=\"sum\"}", "float4", "float4"), 32, combine=False)
    dpp = [inst for inst in module.function.instructions() if inst.op is Op.DPP16]
    assert dpp and all(str(inst.type) == "float4" for inst in dpp)


def test_all_equal_of_a_vector_is_per_component():
    text = print_module(lower(kernel(32, "%9 = wave_all_equal bool2 %1", "float2", "bool2"), 32))
    assert text.count("readfirstlane float") == 2 and "construct bool2" in text


def test_every_emitted_instruction_keeps_the_wave_ops_coordinate():
    text = kernel(64, "%9 = wave_prefix float %1 {fn=\"sum\"}  ; x.hlsl:7:5", "float", "float")
    module = lower(text, 64)
    coords = {(inst.coord.line, inst.coord.col) for inst in module.function.instructions()
              if inst.op in LANE_EXCHANGE or inst.attrs.get("wwm")}
    assert coords == {(7, 5)}


def test_wave_size_mismatch_is_an_error():
    with pytest.raises(ValueError, match="wave32"):
        LowerWaveOps(64).run(read_module(kernel(32, "%9 = wave_lane_count uint")))


def golden_body(module: Module) -> str:
    text = print_module(module, show_coords=False)
    return text.split("^entry:\n", 1)[1]


def test_golden_wave_active_sum_wave32():
    module = lower(kernel(32, '%9 = wave_active float %1 {fn="sum"}', "float", "float"), 32)
    assert golden_body(module) == dedent("""\
          %0 = thread_input uint {which="group_index"}
          %1 = buffer_load float %0 {resource="inp"}
          %2 = const float {value=0.0}
          %3 = set_inactive float %1, %2
          %4 = add float %3, %3 {bank_mask=15, bound_ctrl=true, dpp="quad_perm:[1,0,3,2]", row_mask=15, wwm=true}
          %5 = add float %4, %4 {bank_mask=15, bound_ctrl=true, dpp="quad_perm:[2,3,0,1]", row_mask=15, wwm=true}
          %6 = add float %5, %5 {bank_mask=15, bound_ctrl=true, dpp="row_half_mirror", row_mask=15, wwm=true}
          %7 = add float %6, %6 {bank_mask=15, bound_ctrl=true, dpp="row_mirror", row_mask=15, wwm=true}
          %8 = permlanex16 float %7, %7 {bound_ctrl=false, fetch_inactive=false, selects=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], wwm=true}
          %9 = add float %7, %8 {wwm=true}
          %10 = const uint {value=0}
          %11 = readlane float %9, %10
          buffer_store %0, %11 {resource="out"}
          ret
        }
        """)


def test_golden_wave_active_sum_wave64_uncombined():
    """wave64: the same ladder, then readlane 0 and 32 combined on the scalar side."""
    module = lower(kernel(64, '%9 = wave_active uint %1 {fn="sum"}'), 64, combine=False)
    DeadCode().run(module)
    assert golden_body(module) == dedent("""\
          %0 = thread_input uint {which="group_index"}
          %1 = buffer_load uint %0 {resource="inp"}
          %2 = const uint {value=0}
          %3 = set_inactive uint %1, %2
          %4 = dpp16 uint %3, %3 {bank_mask=15, bound_ctrl=true, ctrl="quad_perm:[1,0,3,2]", row_mask=15, wwm=true}
          %5 = add uint %3, %4 {wwm=true}
          %6 = dpp16 uint %5, %5 {bank_mask=15, bound_ctrl=true, ctrl="quad_perm:[2,3,0,1]", row_mask=15, wwm=true}
          %7 = add uint %5, %6 {wwm=true}
          %8 = dpp16 uint %7, %7 {bank_mask=15, bound_ctrl=true, ctrl="row_half_mirror", row_mask=15, wwm=true}
          %9 = add uint %7, %8 {wwm=true}
          %10 = dpp16 uint %9, %9 {bank_mask=15, bound_ctrl=true, ctrl="row_mirror", row_mask=15, wwm=true}
          %11 = add uint %9, %10 {wwm=true}
          %12 = permlanex16 uint %11, %11 {bound_ctrl=false, fetch_inactive=false, selects=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], wwm=true}
          %13 = add uint %11, %12 {wwm=true}
          %14 = readlane uint %13, %2
          %15 = const uint {value=32}
          %16 = readlane uint %13, %15
          %17 = add uint %14, %16
          buffer_store %0, %17 {resource="out"}
          ret
        }
        """)


def test_prefix_ladder_shape_wave64():
    """Shift right by one (row_shr:1, permlanex16 for lane 16/48, writelane for lane 32), the
    row scan (row_shr 1, 2, 3 of the shifted value, 4 and 8 of the scan), the cross-row carry
    (permlanex16 of lane 15) and the cross-half carry (readlane 31). No row_bcast on RDNA."""
    module = lower(kernel(64, '%9 = wave_prefix uint %1 {fn="sum"}'), 64, combine=False)
    insts = list(module.function.instructions())
    ctrls = [inst.attrs["ctrl"] for inst in insts if inst.op is Op.DPP16]
    assert ctrls == ["row_shr:1", "row_shr:1", "row_shr:2", "row_shr:3", "row_shr:4", "row_shr:8"]
    assert [inst.attrs["selects"][0] for inst in insts if inst.op is Op.PERMLANEX16] == [15, 15]
    assert [inst.op for inst in insts if inst.op in (Op.READLANE, Op.WRITELANE)] == \
        [Op.READLANE, Op.WRITELANE, Op.READLANE]
    ladder = [inst for inst in insts if inst.op not in (Op.CONST, Op.SET_INACTIVE, Op.BUFFER_LOAD, Op.BUFFER_STORE,
                                                         Op.THREAD_INPUT, Op.RETURN)]
    assert all(inst.attrs.get("wwm") for inst in ladder)
    # the sum's identity is 0, so every row_shr move combines
    combined = lower(kernel(64, '%9 = wave_prefix uint %1 {fn="sum"}'), 64)
    assert sum("dpp" in inst.attrs for inst in combined.function.instructions()) == 5


# --------------------------------------------------------------------------------------
# SM 6.5 partitions (wave_partitions.py): a readlane per lane
# --------------------------------------------------------------------------------------


def few_classes(in_type, wave_size):
    """Values from four classes, so lanes share them (and float -0.0 differs from 0.0)."""
    pool = np.array([0.0, -0.0, 2.5, -7.0]) if in_type == "float" else np.array([0, 1, 5, 9])
    return lambda rng: pool[rng.integers(0, 4, wave_size)].astype(DTYPES[in_type])


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("in_type", ["int", "uint", "float"])
def test_wave_match(wave_size, in_type):
    module = check("%9 = wave_match uint4 %1", lambda v, e, _: wm.wave_match(v, e), wave_size, in_type,
                   "uint4", values=few_classes(in_type, wave_size))
    readlanes = [inst for inst in module.function.instructions() if inst.op is Op.READLANE]
    assert len(readlanes) == wave_size


# The mask is WaveMatch(aux & 1): two partitions of the active lanes.
PARTITION_MASK = "%6 = const uint {value=1}\n%7 = and uint %2, %6\n%8 = wave_match uint4 %7\n"


def partition_model(fn):
    def model(values, exec_lanes, aux):
        masks = wm.wave_match(aux & 1, exec_lanes).values
        return wm.wave_multi_prefix(fn, values, masks, exec_lanes)
    return model


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("fn, in_type", [(fn, t) for fn in ("sum", "product") for t in ("int", "uint", "float")]
                         + [(fn, t) for fn in ("and", "or", "xor") for t in ("int", "uint")]
                         + [("sum", "float2"), ("xor", "uint3")])
def test_wave_multi_prefix(wave_size, fn, in_type):
    check(PARTITION_MASK + f'%9 = wave_multi_prefix {in_type} %1, %8 {{fn="{fn}"}}', partition_model(fn),
          wave_size, in_type, small=fn == "product")
