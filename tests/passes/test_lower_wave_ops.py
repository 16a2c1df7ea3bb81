"""Wave-op lowering: every intrinsic and pattern, run on the primitive model.

For each kernel ``out[i] = WaveOp(in[i])`` the lowered (and dpp-combined) IR is
executed lane by lane on ``runtime/wavemodel``'s RDNA2 primitives and compared
with the intrinsic model on the lanes HLSL defines, in wave32 and wave64, with a
full exec mask, every third lane off, and random masks, for int, uint and float
data. Golden IR pins the shape of the main sequences.
"""

from textwrap import dedent

import numpy as np
import pytest

from shc.compiler.frontend import hlsl_types as T
from shc.compiler.ir.core import Inst, Module
from shc.compiler.ir.ops import LANE_EXCHANGE, WAVE_OPS, Op
from shc.compiler.ir.printer import print_module
from shc.compiler.ir.reader import read_module
from shc.compiler.ir.verify import verify
from shc.compiler.passes.dead_code import DeadCode
from shc.compiler.passes.dpp_combine import DppCombine
from shc.compiler.passes.lower_wave_ops import LowerWaveOps
from shc.runtime import wavemodel as wm

WAVE_SIZES = (32, 64)
DTYPES = {"bool": np.bool_, "int": np.int32, "uint": np.uint32, "float": np.float32, "uint64_t": np.uint64}


# --------------------------------------------------------------------------------------
# A straight-line evaluator of lowered IR on the primitive model
# --------------------------------------------------------------------------------------

_BINARY = {
    Op.ADD: np.add, Op.SUB: np.subtract, Op.MUL: np.multiply, Op.MIN: np.minimum, Op.MAX: np.maximum,
    Op.AND: np.bitwise_and, Op.OR: np.bitwise_or, Op.XOR: np.bitwise_xor,
    Op.EQ: np.equal, Op.NE: np.not_equal, Op.LT: np.less, Op.LE: np.less_equal,
    Op.GT: np.greater, Op.GE: np.greater_equal,
}
# Results held in SGPRs: the same in every lane, whatever exec is.
_SCALAR_RESULTS = {Op.CONST, Op.READLANE, Op.READFIRSTLANE, Op.BALLOT_MASK, Op.BCNT}


def _dtype(t: T.Type):
    return np.dtype(DTYPES[T.element_of(t).name])


def _poison(wave_size: int, t: T.Type, rng) -> np.ndarray:
    """What an inactive lane of a VGPR holds: garbage (NaN for floats)."""
    shape = (wave_size,) if isinstance(t, T.ScalarType) else (wave_size, t.size)
    dtype = _dtype(t)
    if dtype.kind == "f":
        return np.full(shape, np.nan, dtype=dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    return rng.integers(0, 1 << 31, shape).astype(dtype)


def _per_component(function, *registers):
    """Apply a primitive per component: registers are (W,) or (W, n)."""
    if registers[0].ndim == 1:
        return function(*registers)
    columns = [function(*(r[:, c] if r.ndim == 2 else r for r in registers)) for c in range(registers[0].shape[1])]
    return np.stack(columns, axis=1)


class Evaluator:
    """Runs one basic block of lowered IR for one wave (the interpreter's job, kept small)."""

    def __init__(self, module: Module, exec_lanes: np.ndarray, buffers: dict[str, np.ndarray], seed=0):
        self.function = module.function
        self.wave_size = len(exec_lanes)
        self.exec = exec_lanes
        self.buffers = {name: array.copy() for name, array in buffers.items()}
        self.values: dict[Inst, np.ndarray] = {}
        self.scalar: set[Inst] = set()
        self.rng = np.random.default_rng(seed)

    def run(self) -> dict[str, np.ndarray]:
        assert len(self.function.blocks) == 1, "the local evaluator runs straight-line kernels"
        for inst in self.function.entry.insts:
            if inst.op is Op.RETURN:
                break
            self.step(inst)
        return self.buffers

    def sgpr(self, inst: Inst):
        """An SGPR operand: its value (lane 0 holds it, as every lane does)."""
        return self.values[inst][0]

    def step(self, inst: Inst) -> None:
        lanes = np.ones(self.wave_size, bool) if inst.attrs.get("wwm") else self.exec
        args = [self.values[operand] for operand in inst.operands]
        result = self.compute(inst, args, lanes)
        if result is None:
            return
        if inst.op in _SCALAR_RESULTS or (inst.operands and all(o in self.scalar for o in inst.operands)):
            self.scalar.add(inst)
        elif inst.op not in LANE_EXCHANGE:
            poison = _poison(self.wave_size, inst.type, self.rng)
            mask = lanes if result.ndim == 1 else lanes[:, None]
            result = np.where(mask, result, poison)
        self.values[inst] = result

    def compute(self, inst: Inst, args, lanes):
        op, attrs, W = inst.op, inst.attrs, self.wave_size
        if op is Op.CONST:
            value = attrs["value"]
            dtype = _dtype(inst.type)
            if isinstance(inst.type, T.VectorType):
                row = np.array(value if isinstance(value, list) else [value] * inst.type.size, dtype=dtype)
                return np.tile(row, (W, 1))
            return np.full(W, value, dtype=dtype)
        if op is Op.THREAD_INPUT:
            return np.arange(W, dtype=np.uint32)
        if op is Op.BUFFER_LOAD:
            return self.buffers[attrs["resource"]][args[0].astype(np.int64) % len(self.buffers[attrs["resource"]])]
        if op is Op.BUFFER_STORE:
            value, address = args
            self.buffers[attrs["resource"]][address[self.exec].astype(np.int64)] = value[self.exec]
            return None
        if "dpp" in attrs:
            src0, src1 = args[0], args[1]
            old = _poison(W, inst.type, self.rng)
            return _per_component(
                lambda a, b, o: wm.dpp16_valu(_BINARY[op], a, b, o, lanes, attrs["dpp"], attrs["row_mask"],
                                              attrs["bank_mask"], attrs["bound_ctrl"]), src0, src1, old)
        with np.errstate(all="ignore"):
            if op in _BINARY:
                a, b = args
                return _BINARY[op](a, b)
            if op in (Op.SHL, Op.SHR):
                a, b = args
                amount = (b.astype(np.int64) & (a.dtype.itemsize * 8 - 1)).astype(a.dtype)
                return np.left_shift(a, amount) if op is Op.SHL else np.right_shift(a, amount)
        if op is Op.SELECT:
            cond, a, b = args
            return np.where(cond if a.ndim == 1 else cond[:, None], a, b)
        if op is Op.CONVERT:
            return args[0].astype(_dtype(inst.type))
        if op is Op.BITCAST:
            return args[0].view(_dtype(inst.type))
        if op is Op.CONSTRUCT:
            return np.stack([a.astype(_dtype(inst.type)) for a in args], axis=1)
        if op is Op.EXTRACT:
            return args[0][:, attrs["index"]]
        return self.primitive(inst, args, lanes)

    def primitive(self, inst: Inst, args, lanes):
        op, attrs, W = inst.op, inst.attrs, self.wave_size
        if op is Op.SET_INACTIVE:
            src, identity = args
            return np.where(self.exec if src.ndim == 1 else self.exec[:, None], src, identity)
        if op is Op.DPP16:
            return _per_component(lambda s, o: wm.dpp16(s, o, lanes, attrs["ctrl"], attrs["row_mask"],
                                                        attrs["bank_mask"], attrs["bound_ctrl"]), *args)
        if op is Op.DPP8:
            return _per_component(lambda s, o: wm.dpp8(s, o, lanes, tuple(attrs["selects"])), *args)
        if op is Op.PERMLANEX16:
            return _per_component(lambda s, o: wm.v_permlanex16_b32(
                s, o, lanes, tuple(attrs["selects"]), attrs["fetch_inactive"], attrs["bound_ctrl"]), *args)
        if op is Op.DS_BPERMUTE:
            src, old, address = args
            return _per_component(lambda s, o: wm.ds_bpermute_b32(s, o, lanes, address), src, old)
        if op is Op.LDS_EXCHANGE:
            src, old, source = args
            return _per_component(lambda s, o: wm.lds_round_trip(s, o, lanes, source), src, old)
        if op is Op.READLANE:
            lane = int(self.sgpr(inst.operands[1]))
            return np.broadcast_to(args[0][lane % W], args[0].shape).copy()
        if op is Op.READFIRSTLANE:
            first = np.flatnonzero(self.exec)
            return np.broadcast_to(args[0][first[0] if len(first) else 0], args[0].shape).copy()
        if op is Op.WRITELANE:
            old, value, lane = args
            result = old.copy()
            result[int(self.sgpr(inst.operands[2])) % W] = self.sgpr(inst.operands[1])
            return result
        if op is Op.BALLOT_MASK:
            return np.full(W, wm.v_cmp_ballot(args[0], lanes), dtype=_dtype(inst.type))
        if op is Op.BCNT:
            return np.full(W, wm.s_bcnt1(int(self.sgpr(inst.operands[0]))), dtype=np.uint32)
        if op is Op.MBCNT:
            mask = int(self.sgpr(inst.operands[0]))
            low = wm.v_mbcnt_lo_u32_b32(mask & 0xFFFFFFFF, args[1], W)
            return wm.v_mbcnt_hi_u32_b32(mask >> 32, low, W)
        raise AssertionError(f"the local evaluator has no rule for {op.value}")


# --------------------------------------------------------------------------------------
# Kernels and the comparison
# --------------------------------------------------------------------------------------


def kernel(wave_size: int, body: str, in_type: str = "uint", out_type: str = "uint") -> str:
    """``out[i] = <body>(in[i])``: %1 is in[i], %2 is aux[i], %3 is aux[0]; the body defines %9."""
    return dedent(f"""
        resource @inp RWStructuredBuffer<{in_type}> u0 space0
        resource @aux RWStructuredBuffer<uint> u1 space0
        resource @out RWStructuredBuffer<{out_type}> u2 space0
        func @main numthreads({wave_size}, 1, 1) wave{wave_size} {{
        ^entry:
          %0 = thread_input uint {{which="group_index"}}
          %1 = buffer_load {in_type} %0 {{resource="inp"}}
          %2 = buffer_load uint %0 {{resource="aux"}}
          %4 = const uint {{value=0}}
          %3 = buffer_load uint %4 {{resource="aux"}}
        """) + dedent(body).strip("\n").replace("\n", "\n  ").join(["  ", "\n"]) + dedent("""
          buffer_store %9, %0 {resource="out"}
          ret
        }
        """)


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
    if in_type == "float":
        low, high = (0.8, 1.25) if small else (-100.0, 100.0)
        return rng.uniform(low, high, wave_size).astype(np.float32)
    if in_type == "int":
        return rng.integers(-4 if small else -(1 << 30), 5 if small else 1 << 30, wave_size).astype(np.int32)
    return rng.integers(0, 5 if small else 1 << 32, wave_size, dtype=np.uint64).astype(np.uint32)


def check(body, model, wave_size, in_type="uint", out_type=None, aux=None, small=False, combine=True, values=None):
    """Lower the kernel, run it under each exec mask and compare with ``model(values, exec)``."""
    out_type = out_type or in_type
    module = lower(kernel(wave_size, body, in_type, out_type), wave_size, combine)
    rng = np.random.default_rng(1234)
    for name, exec_lanes in exec_masks(wave_size):
        data = values(rng) if values else inputs(in_type, wave_size, rng, small)
        aux_data = aux(rng) if aux else rng.integers(0, wave_size, wave_size).astype(np.uint32)
        out_shape = (wave_size, 4) if out_type == "uint4" else (wave_size,)
        out = np.zeros(out_shape, dtype=DTYPES.get(out_type, np.uint32))
        buffers = Evaluator(module, exec_lanes, {"inp": data, "aux": aux_data, "out": out}).run()
        expected = model(data, exec_lanes, aux_data)
        tolerance = {"rtol": 1e-4, "atol": 1e-3} if out_type == "float" else {}
        bad = wm.mismatched_lanes(buffers["out"], expected, **tolerance)
        assert len(bad) == 0, (f"wave{wave_size} exec={name}: lanes {bad.tolist()} got "
                               f"{buffers['out'][bad].tolist()} want {expected.values[bad].tolist()}")
    return module


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


# (lane & ~3) | k, (lane & ~3) + k, k | (~3 & lane), through int conversions: the SPD header's form.
QUAD_PATTERNS = {
    "or": "%5 = wave_lane_index uint\n%6 = const uint {{value=4294967292}}\n%7 = and uint %5, %6\n"
          "%8 = const uint {{value={k}}}\n%10 = or uint %7, %8",
    "add": "%5 = wave_lane_index uint\n%6 = const uint {{value=4294967292}}\n%7 = and uint %5, %6\n"
           "%8 = const uint {{value={k}}}\n%10 = add uint %7, %8",
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


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("mask", XOR_MASKS)
@pytest.mark.parametrize("form", ["shuffle", "read_lane_at"])
def test_shuffle_xor_constant(wave_size, mask, form):
    if mask >= wave_size:
        pytest.skip("the partner lane is outside the wave")
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
    body = f"%9 = wave_all_equal bool %1"
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
          buffer_store %11, %0 {resource="out"}
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
          buffer_store %17, %0 {resource="out"}
          ret
        }
        """)
