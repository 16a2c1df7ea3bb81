"""HLSL intrinsic functions as IR operations.

Arguments arrive converted to the types overload resolution chose
(``Resolution.param_types``); out arguments are places written after the call.

- ``abs min max dot`` are their own ops, and so are HLSL 2021's ``select and or``
  (their arguments arrive converted to one shape, bools for ``and``/``or``, and are all
  evaluated: no short-circuit); ``clamp`` is ``min(max(x, lo), hi)``; ``mad`` is
  ``fma`` on floats and ``mul`` + ``add`` on integers; ``lerp``, ``step``, ``length``, ``distance``, ``normalize``, ``cross``, ``degrees``,
  ``radians``, ``all``, ``any``, ``modf`` and scalar/vector ``mul`` expand to
  arithmetic; the rest of the math group is ``math {fn=name}``, the transcendentals expanded to
  the primitives exp2, log2, sin, cos, rsqrt, rcp and sqrt (lower/intrinsics_math.py).
- ``countbits firstbithigh firstbitlow reversebits``: ``bits {fn=name}``.
- ``asuint asint asfloat``: ``bitcast``; ``f32tof16``/``f16tof32`` their own ops.
- On matrices the element-wise intrinsics run a row at a time (``emit_op``);
  ``mul`` with a matrix and ``transpose`` are in lower/matrices.py; ``all``/``any``
  reduce over every element.
- Wave ops keep their HLSL meaning (lowered to lane exchanges by a later pass):
  reductions ``wave_active {fn=sum|product|min|max|and|or|xor}``, scans
  ``wave_prefix {fn=sum|product}``, ``QuadReadAcrossX/Y/Diagonal`` are
  ``quad_read {lanes=[1,0,3,2] / [2,3,0,1] / [3,2,1,0]}``.
- Barriers: ``barrier {scope=group|device|all, sync=bool}``.
- ``Interlocked*(dest, ...)``: ``lds_atomic`` or ``buffer_atomic`` (see
  lower/resources.py); the old value goes to the optional out argument.
"""

from __future__ import annotations

import math

from ...diagnostics import Coord
from ...frontend import hlsl_types as T
from ..core import Inst
from .intrinsics_composed import COMPOSED
from .matrices import scalar_element, with_scalar
from .resources import ATOMIC_FUNCTIONS
from .values import Unsupported, ir_type
from ..ops import Op

ARITHMETIC = {
    "abs": Op.ABS, "min": Op.MIN, "max": Op.MAX, "dot": Op.DOT, "fma": Op.FMA,
    "select": Op.SELECT, "and": Op.AND, "or": Op.OR,
}
MATH = {
    "sqrt", "rsqrt", "rcp", "exp", "exp2", "log", "log2", "log10", "pow", "floor", "ceil", "frac",
    "round", "trunc", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "atan2",
    "saturate", "sign", "isnan", "isinf", "isfinite", "ldexp", "fmod", "smoothstep",
}
BITS = {"countbits", "firstbithigh", "firstbitlow", "reversebits"}
BITCASTS = {"asuint", "asint", "asfloat", "asint16", "asuint16", "asfloat16"}
WAVE = {
    "WaveGetLaneIndex": Op.WAVE_LANE_INDEX, "WaveGetLaneCount": Op.WAVE_LANE_COUNT,
    "WaveIsFirstLane": Op.WAVE_IS_FIRST_LANE, "WaveReadLaneAt": Op.WAVE_READ_LANE_AT,
    "WaveReadLaneFirst": Op.WAVE_READ_FIRST, "WaveShuffleXor": Op.WAVE_SHUFFLE_XOR,
    "WaveActiveAnyTrue": Op.WAVE_ANY_TRUE, "WaveActiveAllTrue": Op.WAVE_ALL_TRUE,
    "WaveActiveAllEqual": Op.WAVE_ALL_EQUAL, "WaveActiveBallot": Op.WAVE_BALLOT,
    "WaveActiveCountBits": Op.WAVE_COUNT_BITS, "WavePrefixCountBits": Op.WAVE_PREFIX_COUNT_BITS,
    "QuadReadLaneAt": Op.QUAD_READ_LANE_AT, "NonUniformResourceIndex": Op.NON_UNIFORM,
    "WaveMatch": Op.WAVE_MATCH,
}
WAVE_ACTIVE = {
    "WaveActiveSum": "sum", "WaveActiveProduct": "product", "WaveActiveMin": "min", "WaveActiveMax": "max",
    "WaveActiveBitAnd": "and", "WaveActiveBitOr": "or", "WaveActiveBitXor": "xor",
}
WAVE_PREFIX = {"WavePrefixSum": "sum", "WavePrefixProduct": "product"}
WAVE_MULTI_PREFIX = {
    "WaveMultiPrefixSum": "sum", "WaveMultiPrefixProduct": "product", "WaveMultiPrefixBitAnd": "and",
    "WaveMultiPrefixBitOr": "or", "WaveMultiPrefixBitXor": "xor",
}
QUAD_READ = {
    "QuadReadAcrossX": [1, 0, 3, 2], "QuadReadAcrossY": [2, 3, 0, 1], "QuadReadAcrossDiagonal": [3, 2, 1, 0],
}
BARRIERS = {
    "GroupMemoryBarrier": ("group", False), "GroupMemoryBarrierWithGroupSync": ("group", True),
    "DeviceMemoryBarrier": ("device", False), "DeviceMemoryBarrierWithGroupSync": ("device", True),
    "AllMemoryBarrier": ("all", False), "AllMemoryBarrierWithGroupSync": ("all", True),
}
EXPANDED = {
    "clamp", "lerp", "mad", "step", "length", "distance", "normalize", "cross", "degrees", "radians",
    "all", "any", "sincos", "modf", "mul", "f32tof16", "f16tof32", "transpose",
    "CheckAccessFullyMapped",  # lower/resources.py
}


class IntrinsicLowering:
    """Mixin: ``lower_intrinsic(node, resolution)`` for a call of an intrinsic function."""

    def lower_intrinsic(self, node, resolution) -> Inst | None:
        name = resolution.name
        coord = node.coord
        values, places = self.call_arguments(node.args, resolution.param_types, resolution.out_params)
        result = T.VOID if resolution.return_type == T.VOID else ir_type(resolution.return_type, coord)
        emit = self.emit_op  # a row at a time on matrices
        if name in ARITHMETIC:
            return emit(ARITHMETIC[name], values, result, None, coord)
        if name in MATH:  # the transcendentals expand (lower/intrinsics_math.py)
            return self.math_function(name, values, result, coord)
        if name in BITS:
            return emit(Op.BITS, values, result, {"fn": name}, coord)
        if name in BITCASTS:
            if places:  # asuint(double d, out uint low, out uint high)
                return self.split_double(values, places, coord)
            return emit(Op.BITCAST, values, result, None, coord)
        if name in WAVE:
            return emit(WAVE[name], values, result, None, coord)
        if name in WAVE_ACTIVE:
            return emit(Op.WAVE_ACTIVE, values, result, {"fn": WAVE_ACTIVE[name]}, coord)
        if name in WAVE_PREFIX:
            return emit(Op.WAVE_PREFIX, values, result, {"fn": WAVE_PREFIX[name]}, coord)
        if name in WAVE_MULTI_PREFIX:
            return emit(Op.WAVE_MULTI_PREFIX, values, result, {"fn": WAVE_MULTI_PREFIX[name]}, coord)
        if name == "WaveMultiPrefixCountBits":  # the sum of 1 for true, 0 for false
            counted = self.convert(values[0], T.UINT, coord)
            return emit(Op.WAVE_MULTI_PREFIX, [counted, values[1]], result, {"fn": "sum"}, coord)
        if name in QUAD_READ:
            return emit(Op.QUAD_READ, values, result, {"lanes": QUAD_READ[name]}, coord)
        if name in BARRIERS:
            scope, sync = BARRIERS[name]
            emit(Op.BARRIER, [], T.VOID, {"scope": scope, "sync": sync}, coord)
            return None
        if name in ATOMIC_FUNCTIONS:
            return self.interlocked(name, values, places, coord)
        if name in EXPANDED or name in COMPOSED:
            return getattr(self, "intrinsic_" + name)(values, places, result, coord)
        raise Unsupported(f"the intrinsic '{name}'", coord)

    # ------------------------------------------------------------ helpers
    def _op(self, op: Op, operands: list[Inst], coord: Coord) -> Inst:
        return self.emit_op(op, operands, operands[0].type, None, coord)

    def _constant_like(self, value: Inst, number: float, coord: Coord) -> Inst:
        return self.const(value.type, number, coord)

    def _dot_self(self, v: Inst, coord: Coord) -> Inst:
        return self.b.emit(Op.DOT, [v, v], v.type.element, None, coord) if isinstance(v.type, T.VectorType) \
            else self._op(Op.MUL, [v, v], coord)

    # ---------------------------------------------------------- expanded
    def intrinsic_clamp(self, values, places, result, coord):
        x, low, high = values
        return self._op(Op.MIN, [self._op(Op.MAX, [x, low], coord), high], coord)

    def intrinsic_lerp(self, values, places, result, coord):
        a, b, s = values
        return self._op(Op.ADD, [a, self._op(Op.MUL, [s, self._op(Op.SUB, [b, a], coord)], coord)], coord)

    def intrinsic_mad(self, values, places, result, coord):
        if scalar_element(result).is_float:
            return self.emit_op(Op.FMA, values, result, None, coord)
        a, b, c = values
        return self._op(Op.ADD, [self._op(Op.MUL, [a, b], coord), c], coord)

    def intrinsic_step(self, values, places, result, coord):
        edge, x = values
        mask = self.emit_op(Op.GE, [x, edge], with_scalar(result, T.BOOL), None, coord)
        return self.emit_op(Op.SELECT, [mask, self.one(result, coord), self.zero(result, coord)], result, None,
                            coord)

    def intrinsic_length(self, values, places, result, coord):
        return self.b.emit(Op.MATH, [self._dot_self(values[0], coord)], result, {"fn": "sqrt"}, coord)

    def intrinsic_distance(self, values, places, result, coord):
        return self.intrinsic_length([self._op(Op.SUB, values, coord)], places, result, coord)

    def intrinsic_normalize(self, values, places, result, coord):
        v = values[0]
        scale = self.math_function("rsqrt", [self._dot_self(v, coord)], v.type.element, coord)
        return self._op(Op.MUL, [v, self.convert(scale, v.type, coord)], coord)

    def intrinsic_cross(self, values, places, result, coord):
        a, b = values
        left = self._op(Op.MUL, [self.shuffle(a, [1, 2, 0], coord), self.shuffle(b, [2, 0, 1], coord)], coord)
        right = self._op(Op.MUL, [self.shuffle(a, [2, 0, 1], coord), self.shuffle(b, [1, 2, 0], coord)], coord)
        return self._op(Op.SUB, [left, right], coord)

    def intrinsic_degrees(self, values, places, result, coord):
        return self._op(Op.MUL, [values[0], self._constant_like(values[0], 180.0 / math.pi, coord)], coord)

    def intrinsic_radians(self, values, places, result, coord):
        return self._op(Op.MUL, [values[0], self._constant_like(values[0], math.pi / 180.0, coord)], coord)

    def _reduce_bools(self, values, op: Op, coord) -> Inst:
        flags = self.leaves(self.convert(values[0], with_scalar(values[0].type, T.BOOL), coord), coord)
        result = flags[0]
        for flag in flags[1:]:
            result = self._op(op, [result, flag], coord)
        return result

    def intrinsic_all(self, values, places, result, coord):
        return self._reduce_bools(values, Op.AND, coord)

    def intrinsic_any(self, values, places, result, coord):
        return self._reduce_bools(values, Op.OR, coord)

    def intrinsic_sincos(self, values, places, result, coord):
        x = values[0]
        for index, fn in ((1, "sin"), (2, "cos")):
            value = self.math_function(fn, [x], x.type, coord)
            self.store(places[index], self.convert(value, places[index].result_type, coord), coord)
        return None

    def intrinsic_modf(self, values, places, result, coord):
        x = values[0]
        whole = self.emit_op(Op.MATH, [x], x.type, {"fn": "trunc"}, coord)
        self.store(places[1], self.convert(whole, places[1].result_type, coord), coord)
        return self._op(Op.SUB, [x, whole], coord)

    def intrinsic_mul(self, values, places, result, coord):
        a, b = values
        if isinstance(a.type, T.ArrayType) or isinstance(b.type, T.ArrayType):
            return self.mul_product(a, b, result, coord)
        if isinstance(a.type, T.VectorType) and isinstance(b.type, T.VectorType):
            return self.b.emit(Op.DOT, [a, b], result, None, coord)
        return self.b.emit(Op.MUL, [self.convert(a, result, coord), self.convert(b, result, coord)], result,
                           None, coord)

    def intrinsic_transpose(self, values, places, result, coord):
        return self.transpose(values[0], coord)

    def intrinsic_f32tof16(self, values, places, result, coord):
        return self.emit_op(Op.F32TOF16, values, result, None, coord)

    def intrinsic_f16tof32(self, values, places, result, coord):
        return self.emit_op(Op.F16TOF32, values, result, None, coord)

    # ------------------------------------------------------------ atomics
    def interlocked(self, name: str, values: list, places: dict, coord: Coord) -> None:
        fn = ATOMIC_FUNCTIONS[name]
        dest = places[0]
        operands = [v for v in values[1:] if v is not None]
        old = self.memory_atomic(fn, dest, operands, coord)
        for index, place in places.items():
            if index != 0:
                self.store(place, self.convert(old, place.result_type, coord), coord)
        return None
