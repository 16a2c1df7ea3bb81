"""The IR interpreter: IR text kernels run for one wave and checked by hand or
against the NumPy models of runtime/wavemodel.py, in wave32 and wave64."""

from textwrap import dedent

import numpy as np
import pytest

from shc.compiler.ir.interpret import InterpretError, run_wave
from shc.compiler.ir.reader import read_module
from shc.compiler.ir.verify import verify
from shc.runtime import wavemodel as wm

WAVE_SIZES = (32, 64)


def module_of(text: str):
    module = read_module(dedent(text))
    verify(module.function)
    return module


def run(text: str, wave_size: int = 32, **options):
    return run_wave(module_of(text), wave_size=wave_size, **options)


def exec_masks(wave_size: int):
    lanes = np.arange(wave_size)
    rng = np.random.default_rng(wave_size)
    yield "full", np.ones(wave_size, bool)
    yield "every-third-off", lanes % 3 != 2
    yield "random", rng.random(wave_size) < 0.6


def without(wave_size: int, *lanes: int) -> np.ndarray:
    mask = np.ones(wave_size, bool)
    mask[list(lanes)] = False
    return mask


# --------------------------------------------------------------------------------------
# Arithmetic
# --------------------------------------------------------------------------------------


ARITHMETIC = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=4294967295}
  %2 = add uint %0, %1
  %3 = const uint {value=0}
  %4 = div uint %0, %3
  %5 = const int {value=-7}
  %6 = bitcast int %0
  %7 = const int {value=2}
  %8 = div int %5, %7
  %9 = rem int %5, %7
  %10 = const int {value=2147483647}
  %11 = mul int %10, %7
  %12 = const float {value=-3.75}
  %13 = convert int %12
  %14 = const float {value=1e10}
  %15 = convert uint %14
  %16 = const float {value=-1.0}
  %17 = convert uint %16
  %18 = const uint {value=33}
  %19 = shl uint %0, %18
  %20 = shr int %5, %0
  %21 = construct uint4 %2, %4, %0, %0
  %22 = bitcast uint %8
  %23 = bitcast uint %9
  %24 = bitcast uint %11
  %25 = bitcast uint %13
  %26 = bitcast uint %20
  %27 = construct uint4 %22, %23, %24, %25
  %28 = construct uint4 %15, %17, %19, %26
  %29 = const uint {value=3}
  %30 = mul uint %0, %29
  buffer_store %30, %2 {resource="out"}
  %31 = const uint {value=1}
  %32 = add uint %30, %31
  buffer_store %32, %4 {resource="out"}
  %33 = add uint %32, %31
  buffer_store %33, %19 {resource="out"}
  %34 = const uint {value=100}
  buffer_store %34, %27 {resource="vec"}
  %35 = const uint {value=0}
  buffer_store %35, %28 {resource="vec"}
  ret
}
"""


def test_integer_arithmetic_wraps_and_division_by_zero_gives_all_ones():
    out = np.zeros(96, np.uint32)
    vec = np.zeros((4, 4), np.uint32)
    state = run(ARITHMETIC, buffers={"out": out, "vec": vec})
    lanes = np.arange(32, dtype=np.uint32)
    got = state.buffers["out"].reshape(32, 3)
    assert got[0, 0] == 0xFFFFFFFF and (got[1:, 0] == lanes[1:] - 1).all()  # wrap-around
    assert (got[:, 1] == 0xFFFFFFFF).all()  # uint division by zero
    assert (got[:, 2] == lanes << 1).all()  # shift amounts use their low 5 bits
    # vec[100] is out of bounds: dropped. vec[0]: the last lane's store wins.
    as_int = state.buffers["vec"].view(np.int32)
    assert state.buffers["vec"][0].tolist() == [4294967295, 0, 31 << 1, np.uint32(-1 & 0xFFFFFFFF)]
    assert (as_int[1:] == 0).all()


def test_signed_division_conversions_and_arithmetic_shift():
    state = run(ARITHMETIC, buffers={"out": np.zeros(96, np.uint32), "vec": np.zeros((101, 4), np.uint32)})
    words = state.buffers["vec"][100].view(np.int32)
    assert words.tolist() == [-3, -1, -2, -3]  # trunc toward zero; INT_MAX*2 wraps; float->int truncates
    first = state.buffers["vec"][0]
    assert first[0] == 0xFFFFFFFF and first[1] == 0  # float->uint saturates (1e10, -1.0)


CONSTANTS = """
resource @out RWStructuredBuffer<float> u0 space0
func @main numthreads(1, 1, 1) wave32 {
^entry:
  %0 = const float {value=1.5}
  %1 = const float {value=-2.25}
  %2 = mul float %0, %1
  %3 = const int {value=-17}
  %4 = const int {value=5}
  %5 = rem int %3, %4
  %6 = convert float %5
  %7 = add float %2, %6
  %8 = const half {value=0.1}
  %9 = convert float %8
  %10 = add float %7, %9
  %11 = const uint {value=3}
  %12 = shr uint %11, %4
  %13 = convert float %12
  %14 = sub float %10, %13
  %15 = const float4 {value=[1.0, 2.0, 3.0, 4.0]}
  %16 = shuffle float2 %15 {lanes=[3, 1]}
  %17 = extract float %16 {index=0}
  %18 = max float %14, %17
  %19 = min float %14, %17
  %20 = add float %18, %19
  %21 = const uint {value=0}
  buffer_store %21, %20 {resource="out"}
  ret
}
"""


def test_interpreter_agrees_with_the_constant_folder():
    from shc.compiler.passes.constant_fold import ConstantFold

    expected = run(CONSTANTS, buffers={"out": np.zeros(1, np.float32)}).buffers["out"][0]
    module = module_of(CONSTANTS)
    ConstantFold().run(module)
    store = [inst for inst in module.function.instructions() if inst.op.value == "buffer_store"][0]
    assert store.operands[1].op.value == "const"
    assert np.float32(store.operands[1].attrs["value"]) == expected


def test_half_precision_and_f16_bits():
    state = run("""
        resource @out RWStructuredBuffer<uint> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = const float {value=0.1}
          %1 = f32tof16 uint %0
          %2 = f16tof32 float %1
          %3 = convert half %0
          %4 = add half %3, %3
          %5 = convert float %4
          %6 = bitcast uint %2
          %7 = bitcast uint %5
          %8 = construct uint3 %1, %6, %7
          %9 = const uint {value=0}
          buffer_store %9, %8 {resource="out"}
          ret
        }
    """, buffers={"out": np.zeros(3, np.uint32)})
    bits, back, doubled = state.buffers["out"]
    assert bits == np.float16(0.1).view(np.uint16)
    assert np.uint32(back).view(np.float32) == np.float32(np.float16(0.1))
    assert np.uint32(doubled).view(np.float32) == np.float32(np.float16(0.1) + np.float16(0.1))


# --------------------------------------------------------------------------------------
# Control flow
# --------------------------------------------------------------------------------------

IF_ELSE = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=10}
  %2 = lt bool %0, %1
  selection ^end
  cond_br %2, ^then, ^else
^then:
  %3 = const bool {value=true}
  %4 = wave_count_bits uint %3
  br ^end
^else:
  %5 = const uint {value=1000}
  %6 = add uint %0, %5
  br ^end
^end:
  %7 = phi uint [%4, ^then], [%6, ^else]
  buffer_store %0, %7 {resource="out"}
  ret
}
"""


def test_divergent_if_else_with_a_phi_under_a_partial_exec_mask():
    exec_mask = without(32, 3, 20)
    state = run(IF_ELSE, exec_mask=exec_mask, buffers={"out": np.zeros(32, np.uint32)})
    lanes = np.arange(32)
    expected = np.where(lanes < 10, 9, lanes + 1000)  # 9 active lanes below 10 (lane 3 is off)
    expected[~exec_mask] = 0
    assert state.buffers["out"].tolist() == expected.tolist()
    # both sides ran, each under its own lanes
    assert state.stats.counts["wave"] == 1


def test_a_side_with_no_lanes_is_skipped():
    state = run(IF_ELSE, exec_mask=np.arange(32) >= 10, buffers={"out": np.zeros(32, np.uint32)})
    assert "wave" not in state.stats.counts


LOOP = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=0}
  %2 = const uint {value=1}
  %3 = const uint {value=8}
  %4 = and uint %0, %3
  br ^head
^head:
  %5 = phi uint [%1, ^entry], [%8, ^cont]
  %6 = phi uint [%1, ^entry], [%10, ^cont]
  %7 = lt bool %5, %0
  loop ^end ^cont
  cond_br %7, ^body, ^end
^body:
  %8 = add uint %5, %2
  %9 = const bool {value=true}
  %10 = wave_count_bits uint %9
  %11 = eq bool %8, %3
  selection ^join
  cond_br %11, ^end, ^join
^join:
  br ^cont
^cont:
  br ^head
^end:
  %12 = phi uint [%5, ^head], [%8, ^body]
  %13 = phi uint [%6, ^head], [%10, ^body]
  %14 = const uint {value=65536}
  %15 = mul uint %13, %14
  %16 = add uint %12, %15
  buffer_store %0, %16 {resource="out"}
  ret
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_loop_with_per_lane_trip_counts_reconverges(wave_size):
    """Lane i runs min(i, 8) iterations (breaking at 8); the last iteration it runs sees how
    many lanes were still in the loop."""
    state = run(LOOP, wave_size, buffers={"out": np.zeros(wave_size, np.uint32)})
    lanes = np.arange(wave_size)
    trips = np.minimum(lanes, 8)
    active_in_last = np.array([np.count_nonzero(lanes >= t) if t else 0 for t in trips])
    assert (state.buffers["out"] & 0xFFFF).tolist() == trips.tolist()
    assert (state.buffers["out"] >> 16).tolist() == active_in_last.tolist()
    assert state.stats.counts["wave"] == 8  # one wave op per iteration, 8 iterations


SWITCH = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=4}
  %2 = rem uint %0, %1
  %3 = const uint {value=0}
  switch_merge ^end
  switch %2, ^default, ^case0, ^case1 {cases=[0, 1]}
^case0:
  %4 = const uint {value=100}
  br ^case1
^case1:
  %5 = phi uint [%4, ^case0], [%3, ^entry]
  %6 = const bool {value=true}
  %7 = wave_count_bits uint %6
  %8 = add uint %5, %7
  br ^end
^default:
  %9 = const uint {value=7}
  br ^end
^end:
  %10 = phi uint [%8, ^case1], [%9, ^default]
  buffer_store %0, %10 {resource="out"}
  ret
}
"""


def test_switch_falls_through_and_runs_each_case_once():
    state = run(SWITCH, buffers={"out": np.zeros(32, np.uint32)})
    selector = np.arange(32) % 4
    # case 0 falls into case 1: both groups run case 1 together (16 lanes)
    expected = np.select([selector == 0, selector == 1], [116, 16], 7)
    assert state.buffers["out"].tolist() == expected.tolist()
    assert state.stats.counts["wave"] == 1


EARLY_RETURN = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(64, 1, 1) wave64 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=5}
  %2 = rem uint %0, %1
  %3 = const uint {value=0}
  %4 = eq bool %2, %3
  selection ^end
  cond_br %4, ^leave, ^end
^leave:
  %5 = const uint {value=99}
  buffer_store %0, %5 {resource="out"}
  ret
^end:
  %6 = wave_active uint %0 {fn="sum"}
  buffer_store %0, %6 {resource="out"}
  ret
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_lanes_that_return_stay_off(wave_size):
    state = run(EARLY_RETURN, wave_size, buffers={"out": np.zeros(wave_size, np.uint32)})
    lanes = np.arange(wave_size)
    stays = lanes % 5 != 0
    expected = np.where(stays, lanes[stays].sum(), 99)
    assert state.buffers["out"].tolist() == expected.tolist()
    assert state.retired.all()


RUNAWAY = """
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = const bool {value=true}
  br ^head
^head:
  loop ^end ^head
  cond_br %0, ^head, ^end
^end:
  ret
}
"""


def test_runaway_loop_is_an_error():
    with pytest.raises(InterpretError, match="runaway"):
        run(RUNAWAY, max_steps=1000)


def test_unstructured_branch_is_an_error():
    with pytest.raises(InterpretError, match="unstructured"):
        run("""
            func @main numthreads(32, 1, 1) wave32 {
            ^entry:
              %0 = thread_input uint {which="group_index"}
              %1 = const uint {value=3}
              %2 = lt bool %0, %1
              cond_br %2, ^a, ^b
            ^a:
              br ^b
            ^b:
              ret
            }
        """)


# --------------------------------------------------------------------------------------
# Wave intrinsics against the intrinsic model
# --------------------------------------------------------------------------------------


def intrinsic_kernel(wave_size: int, body: str, in_type: str, out_type: str) -> str:
    """``out[i] = <body>`` where %1 is inp[i] and %2 is aux[i]; the body defines %9."""
    return dedent(f"""
        resource @inp RWStructuredBuffer<{in_type}> u0 space0
        resource @aux RWStructuredBuffer<uint> u1 space0
        resource @out RWStructuredBuffer<{out_type}> u2 space0
        func @main numthreads({wave_size}, 1, 1) wave{wave_size} {{
        ^entry:
          %0 = thread_input uint {{which="group_index"}}
          %1 = buffer_load {in_type} %0 {{resource="inp"}}
          %2 = buffer_load uint %0 {{resource="aux"}}
          %3 = const uint {{value=0}}
          %4 = ne bool %1, %3
        """) + f"  {body}\n" + dedent("""
          buffer_store %0, %9 {resource="out"}
          ret
        }
        """)


def _inputs(in_type, wave_size, rng, small=False):
    if in_type == "float":
        return rng.uniform(0.9, 1.1, wave_size).astype(np.float32) if small else \
            rng.uniform(-100, 100, wave_size).astype(np.float32)
    if in_type == "bits":
        return (rng.random(wave_size) < 0.5).astype(np.uint32)
    high = 4 if small else 1 << 20
    return rng.integers(-high if in_type == "int" else 0, high, wave_size).astype(np.int32 if in_type == "int"
                                                                                   else np.uint32)


# (IR body, input type, output type, model(values, exec, aux))
INTRINSICS = {
    "WaveActiveSum": ('%9 = wave_active int %1 {fn="sum"}', "int", "int", lambda v, e, a: wm.wave_active("sum", v, e)),
    "WaveActiveProduct": ('%9 = wave_active int %1 {fn="product"}', "small", "int",
                          lambda v, e, a: wm.wave_active("product", v, e)),
    "WaveActiveMinFloat": ('%9 = wave_active float %1 {fn="min"}', "float", "float",
                           lambda v, e, a: wm.wave_active("min", v, e)),
    "WaveActiveMax": ('%9 = wave_active uint %1 {fn="max"}', "uint", "uint", lambda v, e, a: wm.wave_active("max", v, e)),
    "WaveActiveBitAnd": ('%9 = wave_active uint %1 {fn="and"}', "uint", "uint",
                         lambda v, e, a: wm.wave_active("and", v, e)),
    "WaveActiveBitOr": ('%9 = wave_active uint %1 {fn="or"}', "uint", "uint", lambda v, e, a: wm.wave_active("or", v, e)),
    "WaveActiveBitXor": ('%9 = wave_active uint %1 {fn="xor"}', "uint", "uint",
                         lambda v, e, a: wm.wave_active("xor", v, e)),
    "WavePrefixSum": ('%9 = wave_prefix float %1 {fn="sum"}', "float", "float",
                      lambda v, e, a: wm.wave_prefix("sum", v, e)),
    "WavePrefixProduct": ('%9 = wave_prefix int %1 {fn="product"}', "small", "int",
                          lambda v, e, a: wm.wave_prefix("product", v, e)),
    "WaveActiveBallot": ("%9 = wave_ballot uint4 %4", "bits", "uint4", lambda v, e, a: wm.wave_active_ballot(v != 0, e)),
    "WaveActiveCountBits": ("%9 = wave_count_bits uint %4", "bits", "uint",
                            lambda v, e, a: wm.wave_active_count_bits(v != 0, e)),
    "WavePrefixCountBits": ("%9 = wave_prefix_count_bits uint %4", "bits", "uint",
                            lambda v, e, a: wm.wave_prefix_count_bits(v != 0, e)),
    "WaveActiveAnyTrue": ("%9 = wave_any_true bool %4", "bits", "bool", lambda v, e, a: wm.wave_active_any_true(v != 0, e)),
    "WaveActiveAllTrue": ("%9 = wave_all_true bool %4", "bits", "bool", lambda v, e, a: wm.wave_active_all_true(v != 0, e)),
    "WaveActiveAllEqual": ("%9 = wave_all_equal bool %1", "bits", "bool",
                           lambda v, e, a: wm.wave_active_all_equal(v, e)),
    "WaveReadLaneAt": ("%9 = wave_read_lane_at float %1, %2", "float", "float",
                       lambda v, e, a: wm.wave_read_lane_at(v, e, a)),
    "WaveReadLaneFirst": ("%9 = wave_read_first int %1", "int", "int", lambda v, e, a: wm.wave_read_lane_first(v, e)),
    "WaveGetLaneIndex": ("%9 = wave_lane_index uint", "uint", "uint", lambda v, e, a: wm.wave_get_lane_index(e)),
    "WaveGetLaneCount": ("%9 = wave_lane_count uint", "uint", "uint", lambda v, e, a: wm.wave_get_lane_count(e)),
    "WaveIsFirstLane": ("%9 = wave_is_first_lane bool", "uint", "bool", lambda v, e, a: wm.wave_is_first_lane(e)),
    "QuadReadAcrossX": ("%9 = quad_read uint %1 {lanes=[1, 0, 3, 2]}", "uint", "uint",
                        lambda v, e, a: wm.quad_read_across_x(v, e)),
    "QuadReadAcrossY": ("%9 = quad_read int %1 {lanes=[2, 3, 0, 1]}", "int", "int",
                        lambda v, e, a: wm.quad_read_across_y(v, e)),
    "WaveActiveMinInt": ('%9 = wave_active int %1 {fn="min"}', "int", "int", lambda v, e, a: wm.wave_active("min", v, e)),
    "WaveReadLaneAtUniform": ("%8 = const uint {value=6}\n  %9 = wave_read_lane_at int %1, %8", "int", "int",
                              lambda v, e, a: wm.wave_read_lane_at(v, e, 6)),
    "QuadReadAcrossDiagonal": ("%9 = quad_read float %1 {lanes=[3, 2, 1, 0]}", "float", "float",
                               lambda v, e, a: wm.quad_read_across_diagonal(v, e)),
    "QuadReadLaneAt": ("%8 = const uint {value=2}\n  %9 = quad_read_lane_at int %1, %8", "int", "int",
                       lambda v, e, a: wm.quad_read_lane_at(v, e, 2)),
    "WaveShuffleXor": ("%8 = const uint {value=5}\n  %9 = wave_shuffle_xor uint %1, %8", "uint", "uint",
                       lambda v, e, a: wm.wave_shuffle_xor(v, e, 5)),
}
# bool is a 32-bit word in a buffer (D3D), so a bool buffer is a uint32 array
NUMPY_TYPES = {"int": np.int32, "uint": np.uint32, "float": np.float32, "bool": np.uint32, "uint4": np.uint32}


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("intrinsic", INTRINSICS)
def test_wave_intrinsic_matches_the_model(wave_size, intrinsic):
    body, in_kind, out_type, model = INTRINSICS[intrinsic]
    in_type = {"small": "int", "bits": "uint"}.get(in_kind, in_kind)
    module = module_of(intrinsic_kernel(wave_size, body, in_type, out_type))
    rng = np.random.default_rng(7)
    for name, exec_mask in exec_masks(wave_size):
        values = _inputs(in_kind if in_kind != "small" else "int", wave_size, rng, small=in_kind == "small")
        values = values.astype(NUMPY_TYPES[in_type])
        aux = rng.integers(0, wave_size, wave_size).astype(np.uint32)
        out = np.zeros((wave_size, 4) if out_type == "uint4" else wave_size, NUMPY_TYPES[out_type])
        state = run_wave(module, wave_size, exec_mask, buffers={"inp": values, "aux": aux, "out": out})
        expected = model(values, exec_mask, aux)
        tolerance = {"rtol": 1e-6} if out_type == "float" else {}
        bad = wm.mismatched_lanes(state.buffers["out"], expected, **tolerance)
        assert len(bad) == 0, f"wave{wave_size} {name}: lanes {bad.tolist()}"
        assert (state.buffers["out"][~exec_mask] == 0).all()  # inactive lanes stored nothing


def test_vector_wave_op_runs_per_component():
    module = module_of(intrinsic_kernel(32, '%9 = wave_active float2 %5 {fn="max"}', "float2", "float2")
                       .replace("%4 = ne bool %1, %3", "%5 = shuffle float2 %1 {lanes=[1, 0]}"))
    rng = np.random.default_rng(3)
    values = rng.uniform(-5, 5, (32, 2)).astype(np.float32)
    exec_mask = rng.random(32) < 0.5
    state = run_wave(module, 32, exec_mask, buffers={"inp": values, "aux": np.zeros(32, np.uint32),
                                                     "out": np.zeros((32, 2), np.float32)})
    assert state.buffers["out"][exec_mask].tolist() == [[values[exec_mask, 1].max(), values[exec_mask, 0].max()]] \
        * int(exec_mask.sum())


# --------------------------------------------------------------------------------------
# Primitives
# --------------------------------------------------------------------------------------


def primitive_kernel(wave_size: int, body: str) -> str:
    """%1 = inp[i] (int), %5 = a marker -1 as the old value; the body defines %9."""
    return intrinsic_kernel(wave_size, "%5 = const int {value=-1}\n  " + body, "int", "int")


def run_primitive(body, wave_size, exec_mask, aux=None):
    module = module_of(primitive_kernel(wave_size, body))
    values = np.arange(100, 100 + wave_size, dtype=np.int32)
    aux = np.zeros(wave_size, np.uint32) if aux is None else aux.astype(np.uint32)
    state = run_wave(module, wave_size, exec_mask, buffers={"inp": values, "aux": aux,
                                                            "out": np.zeros(wave_size, np.int32)})
    return state, values, state.value(module.function.blocks[0].insts[-3])


@pytest.mark.parametrize("bound_ctrl", [False, True])
def test_dpp16_quad_perm_with_and_without_bound_ctrl(bound_ctrl):
    exec_mask = without(32, 1, 6)
    body = (f'%9 = dpp16 int %1, %5 {{bank_mask=15, bound_ctrl={str(bound_ctrl).lower()}, '
            f'ctrl="quad_perm:[1,0,3,2]", row_mask=15}}')
    state, values, register = run_primitive(body, 32, exec_mask)
    expected = wm.dpp16(values, np.full(32, -1, np.int32), exec_mask, wm.quad_perm(1, 0, 3, 2),
                        bound_ctrl=bound_ctrl)
    assert register.tolist() == expected.tolist()
    assert register[0] == (0 if bound_ctrl else -1)  # lane 0 reads inactive lane 1
    assert register[1] == -1  # an inactive lane keeps old


def test_ds_bpermute_does_not_cross_halves_in_wave64():
    exec_mask = without(64, 5)
    sources = (np.arange(64) + 40) % 64  # lanes 0..23 ask for lanes 40..63
    state, values, register = run_primitive("%9 = ds_bpermute int %1, %5, %2", 64, exec_mask, sources * 4)
    lanes = np.arange(64)
    expected = wm.ds_bpermute_b32(values, np.full(64, -1, np.int32), exec_mask, sources * 4)
    assert register.tolist() == expected.tolist()
    reached = lanes - lanes % 32 + sources % 32
    assert register[0] == values[reached[0]] == values[8]  # stays in the lower half
    assert register[29] == 0  # lane 29 asks for lane 5 (inactive): 0


OLD = np.int32(-1)
# (IR body, the model on (values, old, exec, aux)); %1 is inp[i], %5 the old register (-1), %2 aux[i]
PRIMITIVES = {
    "dpp16 row_shr bank_mask": ('%9 = dpp16 int %1, %5 {bank_mask=14, bound_ctrl=false, ctrl="row_shr:4", '
                                'row_mask=15}',
                                lambda v, o, e, a: wm.dpp16(v, o, e, wm.row_shr(4), bank_mask=0xE)),
    "dpp16 row_share": ('%9 = dpp16 int %1, %5 {bound_ctrl=true, ctrl="row_share:3"}',
                        lambda v, o, e, a: wm.dpp16(v, o, e, wm.row_share(3), bound_ctrl=True)),
    "dpp8": ("%9 = dpp8 int %1, %5 {selects=[7, 6, 5, 4, 3, 2, 1, 0]}",
             lambda v, o, e, a: wm.dpp8(v, o, e, (7, 6, 5, 4, 3, 2, 1, 0))),
    "dpp8 fi": ("%9 = dpp8 int %1, %5 {fetch_inactive=true, selects=[1, 1, 1, 1, 1, 1, 1, 1]}",
                lambda v, o, e, a: wm.dpp8(v, o, e, (1,) * 8, fetch_inactive=True)),
    "permlanex16": ("%9 = permlanex16 int %1, %5 {selects=[15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]}",
                    lambda v, o, e, a: wm.v_permlanex16_b32(v, o, e, tuple(range(15, -1, -1)))),
    "ds_swizzle": (f"%9 = ds_swizzle int %1, %5 {{offset={wm.swizzle_bitmask_offset(0x1F, 0, 0x3)}}}",
                   lambda v, o, e, a: wm.ds_swizzle_b32(v, o, e, wm.swizzle_bitmask_offset(0x1F, 0, 0x3))),
    "lds_exchange": ("%9 = lds_exchange int %1, %5, %2",
                     lambda v, o, e, a: wm.lds_round_trip(v, o, e, a)),
    "writelane": ("%6 = const uint {value=9}\n  %7 = const int {value=77}\n  %9 = writelane int %1, %7, %6",
                  lambda v, o, e, a: wm.v_writelane_b32(v, 77, 9)),
    "set_inactive": ("%7 = const int {value=55}\n  %9 = set_inactive int %1, %7",
                     lambda v, o, e, a: np.where(e, v, 55)),
    "mbcnt of a ballot": ("%6 = ballot_mask MASK %4\n  %7 = const uint {value=1000}\n"
                          "  %8 = mbcnt uint %6, %7\n  %9 = bitcast int %8",
                          lambda v, o, e, a: np.where(e, 1000 + np.array(
                              [np.count_nonzero((v[:i] != 0) & e[:i]) for i in range(len(v))]), 0)),
    "bcnt of a ballot": ("%6 = ballot_mask MASK %4\n  %7 = bcnt uint %6\n  %9 = bitcast int %7",
                         lambda v, o, e, a: np.full(len(v), np.count_nonzero((v != 0) & e))),
}


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("primitive", PRIMITIVES)
def test_primitive_matches_the_model(wave_size, primitive):
    body, model = PRIMITIVES[primitive]
    body = body.replace("MASK", "uint" if wave_size == 32 else "uint64_t")
    module = module_of(primitive_kernel(wave_size, body))
    result = next(inst for inst in module.function.instructions() if inst.op.value == "buffer_store").operands[-1]
    rng = np.random.default_rng(4)
    for name, exec_mask in exec_masks(wave_size):
        values = rng.integers(-50, 50, wave_size).astype(np.int32)
        aux = rng.integers(0, wave_size, wave_size).astype(np.uint32)
        state = run_wave(module, wave_size, exec_mask, buffers={"inp": values, "aux": aux,
                                                                "out": np.zeros(wave_size, np.int32)})
        old = np.full(wave_size, OLD, np.int32)
        # the whole register, inactive lanes included (their input is 0: they never loaded it)
        loaded = np.where(exec_mask, values, 0)
        expected = model(loaded, old, exec_mask, aux)
        assert state.value(result).tolist() == np.asarray(expected).astype(np.int32).tolist(), name


def test_readlane_is_uniform_even_on_inactive_lanes():
    exec_mask = without(32, 0, 1)
    state, values, register = run_primitive("%6 = const uint {value=1}\n  %9 = readlane int %1, %6", 32, exec_mask)
    assert (register == 0).all()  # lane 1 was never written: the register held 0 there
    state, values, register = run_primitive("%6 = const uint {value=7}\n  %9 = readlane int %1, %6", 32, exec_mask)
    assert (register == values[7]).all()


# The reduction ladder of wavemodel_ladders.reduce_via_dpp (wave32), written as lowered IR.
REDUCE_LADDER = """
  %5 = const int {value=0}
  %10 = set_inactive int %1, %5 {wwm=true}
  %11 = dpp16 int %10, %10 {bank_mask=15, bound_ctrl=false, ctrl="quad_perm:[1,0,3,2]", row_mask=15, wwm=true}
  %12 = add int %10, %11 {wwm=true}
  %13 = add int %12, %12 {bank_mask=15, bound_ctrl=false, dpp="quad_perm:[2,3,0,1]", row_mask=15, wwm=true}
  %14 = dpp16 int %13, %13 {bank_mask=15, bound_ctrl=false, ctrl="row_half_mirror", row_mask=15, wwm=true}
  %15 = add int %13, %14 {wwm=true}
  %16 = dpp16 int %15, %15 {bank_mask=15, bound_ctrl=false, ctrl="row_mirror", row_mask=15, wwm=true}
  %17 = add int %15, %16 {wwm=true}
  %18 = permlanex16 int %17, %17 {wwm=true}
  %19 = add int %17, %18 {wwm=true}
  %20 = const uint {value=0}
  %9 = readlane int %19, %20
"""


def test_a_wwm_reduction_ladder_equals_wave_active_sum():
    module = module_of(intrinsic_kernel(32, REDUCE_LADDER.strip(), "int", "int"))
    rng = np.random.default_rng(11)
    for name, exec_mask in exec_masks(32):
        values = rng.integers(-1000, 1000, 32).astype(np.int32)
        state = run_wave(module, 32, exec_mask, buffers={"inp": values, "aux": np.zeros(32, np.uint32),
                                                         "out": np.zeros(32, np.int32)})
        expected = wm.wave_active("sum", values, exec_mask)
        assert len(wm.mismatched_lanes(state.buffers["out"], expected)) == 0, name
    assert state.stats.dpp_combined == 1 and state.stats.counts["lane_exchange"] == 6


# --------------------------------------------------------------------------------------
# Memory
# --------------------------------------------------------------------------------------

LDS = """
resource @out RWStructuredBuffer<float> u0 space0
groupshared @tile float[64] offset 0 size 256
func @main numthreads(64, 1, 1) wave64 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=4}
  %2 = mul uint %0, %1
  %3 = convert float %0
  lds_store %2, %3 {var="tile"}
  barrier {scope="group", sync=true}
  %4 = const uint {value=63}
  %5 = sub uint %4, %0
  %6 = mul uint %5, %1
  %7 = lds_load float %6 {var="tile"}
  buffer_store %0, %7 {resource="out"}
  ret
}
"""


def test_lds_store_then_load_reversed():
    state = run(LDS, 64, buffers={"out": np.zeros(64, np.float32)})
    assert state.buffers["out"].tolist() == list(range(63, -1, -1))
    assert state.barriers == 1 and state.stats.counts["lds"] == 2
    assert len(state.lds) == 256  # the groupshared size
    assert state.lds.view(np.float32).tolist() == list(range(64))


def test_lds_atomics_return_the_old_value_in_lane_order():
    state = run("""
        resource @out RWStructuredBuffer<uint> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=0}
          %2 = const uint {value=2}
          %3 = lds_atomic uint %1, %2 {fn="add"}
          %5 = const uint {value=8}
          %4 = lds_atomic uint %5, %0 {fn="max"}
          buffer_store %0, %3 {resource="out"}
          ret
        }
    """, exec_mask=without(32, 0), lds=np.zeros(16, np.uint8), buffers={"out": np.zeros(32, np.uint32)})
    expected = [0] + [2 * k for k in range(31)]
    assert state.buffers["out"].tolist() == expected
    assert state.lds.view(np.uint32).tolist() == [62, 0, 31, 0]


def test_buffer_out_of_bounds_reads_zero_and_drops_writes():
    state = run("""
        resource @src StructuredBuffer<uint> t0 space0
        resource @dst RWStructuredBuffer<uint> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = buffer_load uint %0 {resource="src"}
          %2 = const uint {value=1}
          %3 = add uint %1, %2
          %4 = const uint {value=4}
          %5 = mul uint %0, %4
          buffer_store %5, %3 {resource="dst"}
          ret
        }
    """, buffers={"src": np.arange(10, 26, dtype=np.uint32), "dst": np.zeros(40, np.uint32)})
    dst = state.buffers["dst"]
    assert dst[0:40:4].tolist() == [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]  # lanes 0..9 store in bounds
    assert np.count_nonzero(dst) == 10  # lanes 10+ wrote past the end: dropped


def test_cbuffer_loads_from_a_dict_and_from_bytes():
    text = """
        resource @out RWStructuredBuffer<float> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = cbuffer_load float2 {buffer="cb", offset=16}
          %2 = extract float %1 {index=1}
          buffer_store %0, %2 {resource="out"}
          ret
        }
    """
    from_dict = run(text, cbuffers={"cb": {16: 1.5, 20: 2.5}}, buffers={"out": np.zeros(32, np.float32)})
    from_list = run(text, cbuffers={"cb": {12: [0, 1, 2.5]}}, buffers={"out": np.zeros(32, np.float32)})
    assert (from_list.buffers["out"] == 2.5).all()
    raw = np.zeros(8, np.float32)
    raw[5] = 3.5
    from_bytes = run(text, cbuffers={"cb": raw.tobytes()}, buffers={"out": np.zeros(32, np.float32)})
    assert (from_dict.buffers["out"] == 2.5).all() and (from_bytes.buffers["out"] == 3.5).all()
    assert from_dict.stats.counts["salu"] >= 2  # a cbuffer value at a constant offset is scalar


def test_texture_load_store_mips_and_dimensions():
    state = run("""
        resource @src Texture2DArray<float4> t0 space0
        resource @dst RWTexture2D<float2> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=1}
          %2 = const uint {value=0}
          %3 = construct uint4 %0, %2, %1, %1
          %4 = texture_load float4 %3 {resource="src"}
          %5 = shuffle float2 %4 {lanes=[0, 3]}
          %6 = construct uint2 %0, %1
          texture_store %6, %5 {resource="dst"}
          %7 = resource_info uint4 %1 {fields=["width", "height", "elements", "levels"], resource="src"}
          %8 = extract uint %7 {index=0}
          %9 = convert float %8
          %10 = construct float2 %9, %9
          %11 = construct uint2 %0, %2
          texture_store %11, %10 {resource="dst"}
          ret
        }
    """, buffers={"src": [np.zeros((2, 8, 16, 3), np.float32), np.arange(2 * 4 * 8 * 3, dtype=np.float32)
                          .reshape(2, 4, 8, 3)],
                  "dst": np.zeros((2, 20, 2), np.float32)})
    dst = state.buffers["dst"]
    mip1 = np.arange(2 * 4 * 8 * 3, dtype=np.float32).reshape(2, 4, 8, 3)
    # row 1: slice 1 of mip 1 at (x, 0); x >= 8 is outside that mip: 0, and alpha defaults to 1
    assert dst[1, :8].tolist() == [[mip1[1, 0, x, 0], 1.0] for x in range(8)]
    assert dst[1, 8:].tolist() == [[0.0, 0.0]] * 12
    assert dst[0].tolist() == [[8.0, 8.0]] * 20  # mip 1 is 8 wide; lanes 20+ wrote outside: dropped


def test_texture_sample_is_not_supported():
    with pytest.raises(InterpretError, match="not supported"):
        run("""
            resource @tex Texture2D<float4> t0 space0
            resource @smp SamplerState s0 space0
            func @main numthreads(32, 1, 1) wave32 {
            ^entry:
              %0 = const float2 {value=[0.5, 0.5]}
              %1 = const float {value=0.0}
              %2 = texture_sample float4 %0, %1 {resource="tex", sampler="smp"}
              ret
            }
        """, buffers={"tex": np.zeros((4, 4, 4), np.float32)})


def test_resource_arrays_byte_address_buffers_and_resource_info():
    state = run("""
        resource @tables[2] StructuredBuffer<uint2> t0 space0
        resource @raw RWByteAddressBuffer u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=1}
          %2 = and uint %0, %1
          %3 = buffer_load uint %2, %0 {offset=4, resource="tables"}
          %4 = const uint {value=4}
          %5 = mul uint %0, %4
          buffer_store %5, %3 {resource="raw"}
          %6 = resource_info uint2 %2 {fields=["count", "stride"], resource="tables"}
          %7 = extract uint %6 {index=0}
          %8 = const uint {value=0}
          %9 = eq bool %0, %8
          selection ^end
          cond_br %9, ^first, ^end
        ^first:
          %10 = const uint {value=200}
          buffer_store %10, %7 {resource="raw"}
          br ^end
        ^end:
          ret
        }
    """, buffers={"tables": [np.arange(64, dtype=np.uint32).reshape(32, 2), np.full((3, 2), 7, np.uint32)],
                  "raw": np.zeros(51, np.uint32)})
    raw = state.buffers["raw"]
    lanes = np.arange(32)
    # even lanes read the y of element i of table 0; odd lanes table 1, which has 3 elements
    expected = np.where(lanes % 2 == 0, 2 * lanes + 1, np.where(lanes < 3, 7, 0))
    assert raw[:32].tolist() == expected.tolist()
    assert raw[50] == 32  # lane 0 (table 0): count = 32 elements, at byte 200


def test_arrays_are_values_through_phis_extract_and_insert():
    state = run("""
        resource @out RWStructuredBuffer<float> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = convert float %0
          %2 = const float {value=0.5}
          %3 = construct float[2] %1, %2
          %4 = const uint {value=16}
          %5 = lt bool %0, %4
          selection ^end
          cond_br %5, ^then, ^end
        ^then:
          %6 = add float %1, %1
          %7 = insert float[2] %3, %6 {index=1}
          br ^end
        ^end:
          %8 = phi float[2] [%7, ^then], [%3, ^entry]
          %9 = extract float %8 {index=1}
          %10 = const uint {value=2}
          %11 = extract float %8 {index=0}
          %12 = add float %9, %11
          buffer_store %0, %12 {resource="out"}
          ret
        }
    """, buffers={"out": np.zeros(32, np.float32)})
    lanes = np.arange(32)
    assert state.buffers["out"].tolist() == np.where(lanes < 16, 3 * lanes, lanes + 0.5).tolist()


def test_scratch_is_per_lane():
    state = run("""
        resource @out RWStructuredBuffer<uint> u0 space0
        scratch 16
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=3}
          %2 = and uint %0, %1
          %3 = const uint {value=4}
          %4 = mul uint %2, %3
          scratch_store %4, %0
          %5 = const uint {value=8}
          %6 = scratch_load uint %5
          buffer_store %0, %6 {resource="out"}
          ret
        }
    """, buffers={"out": np.zeros(32, np.uint32)})
    lanes = np.arange(32)
    assert state.buffers["out"].tolist() == np.where(lanes % 4 == 2, lanes, 0).tolist()


SWITCH_IN_LOOP = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=0}
  %2 = const uint {value=1}
  %3 = const uint {value=3}
  br ^head
^head:
  %4 = phi uint [%1, ^entry], [%12, ^cont]
  %5 = phi uint [%1, ^entry], [%11, ^cont]
  %6 = lt bool %4, %0
  loop ^end ^cont
  cond_br %6, ^body, ^end
^body:
  %7 = rem uint %4, %3
  switch_merge ^sw.end
  switch %7, ^sw.end, ^skip, ^count {cases=[0, 1]}
^skip:
  br ^cont
^count:
  %8 = const uint {value=100}
  %9 = add uint %5, %8
  br ^sw.end
^sw.end:
  %10 = phi uint [%5, ^body], [%9, ^count]
  br ^cont
^cont:
  %11 = phi uint [%5, ^skip], [%10, ^sw.end]
  %12 = add uint %4, %2
  %13 = const bool {value=true}
  %14 = wave_count_bits uint %13
  br ^head
^end:
  buffer_store %0, %5 {resource="out"}
  ret
}
"""


def test_continue_from_a_switch_inside_a_loop():
    """Lanes that continue from one case and lanes that finish the switch run ^cont together."""
    state = run(SWITCH_IN_LOOP, buffers={"out": np.zeros(32, np.uint32)})
    expected = [100 * sum(1 for k in range(i) if k % 3 == 1) for i in range(32)]
    assert state.buffers["out"].tolist() == expected
    assert state.stats.counts["wave"] == 31  # ^cont ran once per iteration (lane 31 runs 31)


# --------------------------------------------------------------------------------------
# The passes' output runs here too: wave-op lowering and waterfall loops
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("combine", [False, True])
def test_lowered_wave_ops_match_the_intrinsic_model(wave_size, combine):
    """Every intrinsic of INTRINSICS after LowerWaveOps (and DppCombine): the interpreter runs
    the primitive sequences and gets what the intrinsic model says."""
    from shc.compiler.passes.dead_code import DeadCode
    from shc.compiler.passes.dpp_combine import DppCombine
    from shc.compiler.passes.lower_wave_ops import LowerWaveOps

    rng = np.random.default_rng(5)
    for intrinsic, (body, in_kind, out_type, model) in INTRINSICS.items():
        in_type = {"small": "int", "bits": "uint"}.get(in_kind, in_kind)
        module = module_of(intrinsic_kernel(wave_size, body, in_type, out_type))
        LowerWaveOps(wave_size).run(module)
        if combine:
            DppCombine().run(module)
            DeadCode().run(module)
        verify(module.function)
        for name, exec_mask in exec_masks(wave_size):
            values = _inputs(in_kind if in_kind != "small" else "int", wave_size, rng, small=in_kind == "small")
            values = values.astype(NUMPY_TYPES[in_type])
            aux = rng.integers(0, wave_size, wave_size).astype(np.uint32)
            out = np.zeros((wave_size, 4) if out_type == "uint4" else wave_size, NUMPY_TYPES[out_type])
            state = run_wave(module, wave_size, exec_mask, buffers={"inp": values, "aux": aux, "out": out})
            tolerance = {"rtol": 1e-4, "atol": 1e-3} if out_type == "float" else {}
            bad = wm.mismatched_lanes(state.buffers["out"], model(values, exec_mask, aux), **tolerance)
            assert len(bad) == 0, f"{intrinsic} wave{wave_size} {name}: lanes {bad.tolist()}"


NON_UNIFORM = """
resource @tables[4] StructuredBuffer<uint> t0 space1
resource @pick RWStructuredBuffer<uint> u1 space0
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = buffer_load uint %0 {resource="pick"}
  %2 = non_uniform uint %1
  %3 = buffer_load uint %2, %0 {resource="tables"}
  %4 = const bool {value=true}
  %5 = wave_count_bits uint %4
  %6 = const uint {value=1000}
  %7 = mul uint %5, %6
  %8 = add uint %3, %7
  buffer_store %0, %8 {resource="out"}
  ret
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_waterfall_loop_gives_the_same_result_with_one_access_per_distinct_index(wave_size):
    from shc.compiler.passes.waterfall import Waterfall

    rng = np.random.default_rng(9)
    tables = [np.arange(64, dtype=np.uint32) + 100 * k for k in range(4)]
    pick = rng.integers(0, 3, wave_size).astype(np.uint32)  # tables 0..2 of 4
    exec_mask = rng.random(wave_size) < 0.7
    buffers = {"tables": tables, "pick": pick, "out": np.zeros(wave_size, np.uint32)}
    plain = run_wave(module_of(NON_UNIFORM), wave_size, exec_mask, buffers=buffers)
    module = module_of(NON_UNIFORM)
    Waterfall().run(module)
    verify(module.function)
    looped = run_wave(module, wave_size, exec_mask, buffers=buffers)
    assert looped.buffers["out"].tolist() == plain.buffers["out"].tolist()
    lanes = np.arange(wave_size)
    expected = np.where(exec_mask, pick * 100 + lanes + 1000 * exec_mask.sum(), 0)
    assert plain.buffers["out"].tolist() == expected.tolist()  # after the loop the wave has reconverged
    assert looped.stats.counts["vmem"] - plain.stats.counts["vmem"] == len(set(pick[exec_mask])) - 1


# --------------------------------------------------------------------------------------
# HLSL end to end: front end, AST lowering, then the interpreter (one wave of the group)
# --------------------------------------------------------------------------------------


def compile_hlsl(text: str, wave_size: int, lower_waves: bool = False):
    from shc.compiler.diagnostics import Diagnostics
    from shc.compiler.ir.from_ast import lower
    from shc.compiler.pipeline import Options, check_source

    diagnostics = Diagnostics()
    program = check_source(text, "kernel.hlsl", Options(wave_size=wave_size), diagnostics)
    module = lower(program, wave_size, diagnostics)
    diagnostics.check()
    verify(module.function)
    if lower_waves:
        from shc.compiler.passes.dead_code import DeadCode
        from shc.compiler.passes.dpp_combine import DppCombine
        from shc.compiler.passes.lower_wave_ops import LowerWaveOps

        for each in (LowerWaveOps(wave_size), DppCombine(), DeadCode()):
            each.run(module)
        verify(module.function)
    return module


KERNEL = r"""
RWStructuredBuffer<uint> Out : register(u0);
StructuredBuffer<float4> In : register(t0);
groupshared float tile[64];
cbuffer Params { uint count; float scale; };
struct Pair { float a; uint b; };
Pair make(float x, uint y) { Pair p; p.a = x; p.b = y; return p; }
[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    tile[gi] = In[gi].x * scale;
    GroupMemoryBarrierWithGroupSync();
    uint acc = 0;
    for (uint i = 0; i < gi % 7; ++i) {
        if (i == 3) continue;
        acc += i;
        if (acc > 8) break;
    }
    Pair p = make(tile[63 - gi], acc);
    uint r = 0;
    switch (gi % 4) {
        case 0: r = 10;
        case 1: r += 1; break;
        default: r = 5; break;
    }
    if (gi == 5) return;
    Out[gi] = p.b + (uint)p.a * 1000 + r * 100000;
    Out[gi + 64] = WavePrefixCountBits(gi % 2 == 0) + QuadReadAcrossX(gi) * 100;
}
"""


def kernel_reference(wave_size: int):
    out = np.zeros(128, np.int64)
    lanes = np.arange(wave_size)
    active = lanes != 5
    for gi in lanes[active]:
        acc = 0
        for i in range(gi % 7):
            if i == 3:
                continue
            acc += i
            if acc > 8:
                break
        source = 63 - gi  # tile entries of lanes outside this wave were never written
        tile = 2.0 * source if source < wave_size else 0.0
        r = {0: 11, 1: 1}.get(gi % 4, 5)
        out[gi] = acc + int(tile) * 1000 + r * 100000
        evens_below = np.count_nonzero(active[:gi] & (lanes[:gi] % 2 == 0))
        partner = gi ^ 1
        out[gi + 64] = evens_below + (partner * 100 if active[partner] else 0)
    return out


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("lower_waves", [False, True])
def test_hlsl_kernel_with_loops_switch_structs_and_early_return(wave_size, lower_waves):
    module = compile_hlsl(KERNEL, wave_size, lower_waves)
    data = np.zeros((64, 4), np.float32)
    data[:, 0] = np.arange(64)
    params = np.array([3], np.uint32).tobytes() + np.array([2.0], np.float32).tobytes()
    state = run_wave(module, wave_size, buffers={"Out": np.zeros(128, np.uint32), "In": data},
                     cbuffers={"Params": params})
    expected = kernel_reference(wave_size)
    defined = np.ones(128, bool)
    defined[64 + 4] = False  # lane 4 reads lane 5 (returned) across the quad: undefined
    assert state.buffers["Out"][defined].tolist() == expected[defined].tolist()


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("lower_waves", [False, True])
def test_prefix_sum_sample_first_wave(wave_size, lower_waves):
    """samples/prefix_sum.hlsl: wave 0 of group 0 needs no other wave's total."""
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "samples" / "prefix_sum.hlsl").read_text()
    module = compile_hlsl(source, wave_size, lower_waves)
    data = np.random.default_rng(2).integers(0, 1 << 30, 300).astype(np.uint32)
    state = run_wave(module, wave_size, buffers={"input": data, "output": np.zeros(300, np.uint32),
                                                 "blockSums": np.zeros(2, np.uint32)},
                     cbuffers={"scanConstants": {0: 300}})
    expected = np.concatenate([[0], np.cumsum(data[:wave_size], dtype=np.uint32)[:-1]])
    assert state.buffers["output"][:wave_size].tolist() == expected.tolist()
    assert state.barriers == 1


@pytest.mark.parametrize("wave_size, lower_waves", [(32, False), (64, True)])
def test_spd_sample_first_wave_writes_true_mip1_and_mip2_texels(wave_size, lower_waves):
    """samples/spd.hlsl (FidelityFX SPD port): one wave of group 0 writes 4 mip-1 texels per
    lane and its quads' mip-2 texels; every texel it writes is the true 2x2 average."""
    from pathlib import Path

    from shc.compiler.diagnostics import Diagnostics
    from shc.compiler.ir.from_ast import lower
    from shc.compiler.pipeline import Options, check_source

    root = Path(__file__).resolve().parents[2]
    diagnostics = Diagnostics()
    options = Options(wave_size=wave_size, include_dirs=[str(root / "stdlib")])
    program = check_source((root / "samples" / "spd.hlsl").read_text(), str(root / "samples" / "spd.hlsl"),
                           options, diagnostics)
    module = lower(program, wave_size, diagnostics)
    diagnostics.check()
    if lower_waves:
        from shc.compiler.passes.lower_wave_ops import LowerWaveOps

        LowerWaveOps(wave_size).run(module)
    verify(module.function)
    source = np.random.default_rng(0).uniform(1, 2, (1, 64, 64, 4)).astype(np.float32)
    mips = [np.zeros((1, 32 >> k, 32 >> k, 4), np.float32) for k in range(6)] + \
        [np.zeros((1, 1, 1, 4), np.float32) for _ in range(6)]
    state = run_wave(module, wave_size, buffers={"imgSrc": source, "spdGlobalAtomic": np.zeros(1, np.uint32),
                                                 "imgDst": mips, "imgDst6": np.zeros((1, 1, 1, 4), np.float32)},
                     cbuffers={"spdConstants": {0: 6, 4: 1, 8: [0, 0]}})
    mip1 = source[0].reshape(32, 2, 32, 2, 4).mean(axis=(1, 3))
    mip2 = mip1.reshape(16, 2, 16, 2, 4).mean(axis=(1, 3))
    for got, want, count in ((state.buffers["imgDst"][0][0], mip1, 4 * wave_size),
                             (state.buffers["imgDst"][1][0], mip2, wave_size)):
        written = got[..., 0] != 0
        assert written.sum() == count
        assert np.allclose(got[written], want[written], rtol=1e-6)
    assert state.barriers >= 1


def test_thread_inputs_follow_from_group_index_numthreads_and_group_id():
    state = run("""
        resource @out RWStructuredBuffer<uint4> u0 space0
        func @main numthreads(8, 8, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = thread_input uint3 {which="group_thread_id"}
          %2 = thread_input uint3 {which="dispatch_thread_id"}
          %3 = thread_input uint3 {which="group_id"}
          %4 = const uint {value=32}
          %5 = sub uint %0, %4
          %6 = extract uint %1 {index=1}
          %7 = shuffle uint2 %2 {lanes=[0, 1]}
          %8 = extract uint %3 {index=0}
          %9 = construct uint4 %6, %7, %8
          buffer_store %5, %9 {resource="out"}
          ret
        }
    """, lane_inputs={"group_index": np.arange(32, 64), "group_id": (2, 1, 0)},
        buffers={"out": np.zeros((32, 4), np.uint32)})
    index = np.arange(32, 64)
    expected = np.stack([index // 8, 2 * 8 + index % 8, 1 * 8 + index // 8, np.full(32, 2)], axis=1)
    assert state.buffers["out"].tolist() == expected.tolist()
