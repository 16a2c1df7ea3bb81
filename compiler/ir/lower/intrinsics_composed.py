"""Intrinsics that are compositions of operations the IR already has.

Each becomes the arithmetic DXC's own lowering produces, so the IR interpreter, the host
JIT and the RDNA2 listing agree without back-end work of their own:

- ``asint16 asuint16 asfloat16``: ``bitcast`` between the 16-bit types.
- ``asdouble(lo, hi)``: both widened to uint64, ``hi << 32 | lo``, ``bitcast`` to double;
  ``asuint(d, out lo, out hi)``: the reverse (``bitcast``, then the low word and ``>> 32``).
- ``reflect(i, n)`` is ``i - (2 * dot(i, n)) * n``; ``refract(i, n, eta)`` is, with
  ``d = dot(i, n)`` and ``t = 1 - eta * eta * (1 - d * d)``,
  ``t >= 0 ? eta * i - (eta * d + sqrt(t)) * n : 0`` (total internal reflection gives 0).
- ``D3DCOLORtoUBYTE4(c)`` is ``int4(c.zyxw * 255.001953)`` (the 0.001953 rounds: 0.5 / 256).
- ``AddUint64(a, b)`` on (low, high) pairs: ``low = a.lo + b.lo``, carry ``low < a.lo``,
  ``high = a.hi + b.hi + carry``; a uint4 is two pairs.
- ``dot2add(a, b, acc)``: the halves widened to float (exact, and so are their products),
  ``acc + a.x * b.x + a.y * b.y`` added in float, left to right.
- ``dot4add_i8packed/u8packed(a, b, acc)``: the four bytes of each (sign- or zero-extended,
  byte 0 in the low bits) as int4/uint4, ``acc + dot`` with 32-bit wrap-around.
- ``unpack_*``: the bytes by shifts (``v << (24, 16, 8, 0) >> 24`` arithmetic for the
  signed forms, ``v >> (0, 8, 16, 24) & 255`` for the unsigned), narrowed for the 16-bit forms;
  ``pack_*``: each component's low byte shifted to its place and or-ed, ``x`` lowest; the
  clamping forms first clamp to [0, 255] or [-128, 127].
"""

from __future__ import annotations

from ...diagnostics import Coord
from ...frontend import hlsl_types as T
from ..core import Inst
from ..ops import Op
from .matrices import with_scalar

INT4 = T.VectorType(T.INT, 4)
UINT4 = T.VectorType(T.UINT, 4)
# D3DCOLORtoUBYTE4's scale, as FXC and DXC write it
COLOR_TO_BYTE = 255.001953


class ComposedIntrinsics:
    """Mixin: ``intrinsic_<name>`` for the intrinsics this module's docstring lists."""

    def _emit(self, op: Op, operands: list[Inst], result: T.Type, coord: Coord) -> Inst:
        return self.emit_op(op, operands, result, None, coord)

    # ------------------------------------------------------- 64-bit words
    def intrinsic_asdouble(self, values, places, result, coord):
        low, high = values
        wide = with_scalar(result, T.UINT64)
        high = self._emit(Op.SHL, [self.convert(high, wide, coord), self.const(wide, 32, coord)], wide, coord)
        bits = self._emit(Op.OR, [self.convert(low, wide, coord), high], wide, coord)
        return self._emit(Op.BITCAST, [bits], result, coord)

    def split_double(self, values, places, coord) -> None:
        """``asuint(d, out low, out high)``."""
        value = values[0]
        bits = self._emit(Op.BITCAST, [value], with_scalar(value.type, T.UINT64), coord)
        high = self._emit(Op.SHR, [bits, self.const(bits.type, 32, coord)], bits.type, coord)
        for index, word in ((1, bits), (2, high)):
            place = places[index]
            self.store(place, self.convert(word, place.result_type, coord), coord)
        return None

    # ------------------------------------------------------------- vectors
    def _splat_like(self, scalar: Inst, vector: Inst, coord: Coord) -> Inst:
        return self.convert(scalar, vector.type, coord)

    def _dot(self, a: Inst, b: Inst, coord: Coord) -> Inst:
        if isinstance(a.type, T.VectorType):
            return self.b.emit(Op.DOT, [a, b], a.type.element, None, coord)
        return self._emit(Op.MUL, [a, b], a.type, coord)

    def intrinsic_reflect(self, values, places, result, coord):
        i, n = values
        twice = self._emit(Op.MUL, [self.const(i.type.element, 2.0, coord), self._dot(i, n, coord)],
                           i.type.element, coord)
        return self._emit(Op.SUB, [i, self._emit(Op.MUL, [self._splat_like(twice, n, coord), n], n.type, coord)],
                          result, coord)

    def intrinsic_refract(self, values, places, result, coord):
        i, n, eta = values
        element = i.type.element
        one = self.const(element, 1.0, coord)
        d = self._dot(i, n, coord)
        cosine_sq = self._emit(Op.SUB, [one, self._emit(Op.MUL, [d, d], element, coord)], element, coord)
        scaled = self._emit(Op.MUL, [cosine_sq, self._emit(Op.MUL, [eta, eta], element, coord)], element, coord)
        t = self._emit(Op.SUB, [one, scaled], element, coord)
        outward = self._emit(Op.ADD, [self._emit(Op.MUL, [eta, d], element, coord),
                                      self.b.emit(Op.MATH, [t], element, {"fn": "sqrt"}, coord)], element, coord)
        along_i = self._emit(Op.MUL, [i, self._splat_like(eta, i, coord)], result, coord)
        along_n = self._emit(Op.MUL, [self._splat_like(outward, n, coord), n], result, coord)
        refracted = self._emit(Op.SUB, [along_i, along_n], result, coord)
        transmits = self._emit(Op.GE, [t, self.const(element, 0.0, coord)], T.BOOL, coord)
        condition = self.convert(transmits, with_scalar(result, T.BOOL), coord)
        return self._emit(Op.SELECT, [condition, refracted, self.zero(result, coord)], result, coord)

    def intrinsic_D3DCOLORtoUBYTE4(self, values, places, result, coord):
        color = self.shuffle(values[0], [2, 1, 0, 3], coord)
        scaled = self._emit(Op.MUL, [color, self.const(color.type, COLOR_TO_BYTE, coord)], color.type, coord)
        return self.convert(scaled, result, coord)

    def intrinsic_AddUint64(self, values, places, result, coord):
        a, b = values
        words = []
        for pair in range(result.size // 2):
            a_low, a_high = self.extract(a, 2 * pair, coord), self.extract(a, 2 * pair + 1, coord)
            b_low, b_high = self.extract(b, 2 * pair, coord), self.extract(b, 2 * pair + 1, coord)
            low = self._emit(Op.ADD, [a_low, b_low], T.UINT, coord)
            wrapped = self._emit(Op.LT, [low, a_low], T.BOOL, coord)
            carry = self.convert(wrapped, T.UINT, coord)
            high = self._emit(Op.ADD, [self._emit(Op.ADD, [a_high, b_high], T.UINT, coord), carry], T.UINT, coord)
            words += [low, high]
        return self.construct(words, result, coord)

    # -------------------------------------------------------- dot products
    def intrinsic_dot2add(self, values, places, result, coord):
        a, b, acc = (self.convert(value, with_scalar(value.type, T.FLOAT), coord) for value in values)
        total = acc
        for k in range(2):
            product = self._emit(Op.MUL, [self.extract(a, k, coord), self.extract(b, k, coord)], T.FLOAT, coord)
            total = self._emit(Op.ADD, [total, product], T.FLOAT, coord)
        return total

    def intrinsic_dot4add_i8packed(self, values, places, result, coord):
        a, b, acc = values
        dot = self._dot(self.signed_bytes(a, coord), self.signed_bytes(b, coord), coord)
        return self._emit(Op.ADD, [acc, dot], T.INT, coord)

    def intrinsic_dot4add_u8packed(self, values, places, result, coord):
        a, b, acc = values
        dot = self._dot(self.unsigned_bytes(a, coord), self.unsigned_bytes(b, coord), coord)
        return self._emit(Op.ADD, [acc, dot], T.UINT, coord)

    # ----------------------------------------------------- pack and unpack
    def signed_bytes(self, packed: Inst, coord: Coord) -> Inst:
        """The four bytes of a uint as an int4, sign-extended, byte 0 in x."""
        word = self.splat(self._emit(Op.BITCAST, [packed], T.INT, coord), 4, coord)
        high = self._emit(Op.SHL, [word, self.b.const(INT4, [24, 16, 8, 0], coord)], INT4, coord)
        return self._emit(Op.SHR, [high, self.const(INT4, 24, coord)], INT4, coord)

    def unsigned_bytes(self, packed: Inst, coord: Coord) -> Inst:
        """The four bytes of a uint as a uint4, byte 0 in x."""
        word = self.splat(packed, 4, coord)
        low = self._emit(Op.SHR, [word, self.b.const(UINT4, [0, 8, 16, 24], coord)], UINT4, coord)
        return self._emit(Op.AND, [low, self.const(UINT4, 0xFF, coord)], UINT4, coord)

    def intrinsic_unpack_s8s32(self, values, places, result, coord):
        return self.signed_bytes(values[0], coord)

    def intrinsic_unpack_s8s16(self, values, places, result, coord):
        return self.convert(self.signed_bytes(values[0], coord), result, coord)

    def intrinsic_unpack_u8u32(self, values, places, result, coord):
        return self.unsigned_bytes(values[0], coord)

    def intrinsic_unpack_u8u16(self, values, places, result, coord):
        return self.convert(self.unsigned_bytes(values[0], coord), result, coord)

    def pack_bytes(self, value: Inst, coord: Coord) -> Inst:
        """The low byte of each component of a 4-vector, x in the lowest byte of a uint."""
        words = self.convert(value, with_scalar(value.type, T.INT if value.type.element.kind == "int" else T.UINT),
                             coord)
        words = self._emit(Op.BITCAST, [words], UINT4, coord) if words.type != UINT4 else words
        low = self._emit(Op.AND, [words, self.const(UINT4, 0xFF, coord)], UINT4, coord)
        placed = self._emit(Op.SHL, [low, self.b.const(UINT4, [0, 8, 16, 24], coord)], UINT4, coord)
        packed = self.extract(placed, 0, coord)
        for k in range(1, 4):
            packed = self._emit(Op.OR, [packed, self.extract(placed, k, coord)], T.UINT, coord)
        return packed

    def _clamped(self, value: Inst, low: int, high: int, coord: Coord) -> Inst:
        words = self.convert(value, INT4, coord)  # int16_t components fit
        raised = self._emit(Op.MAX, [words, self.const(INT4, low, coord)], INT4, coord)
        return self._emit(Op.MIN, [raised, self.const(INT4, high, coord)], INT4, coord)

    def intrinsic_pack_u8(self, values, places, result, coord):
        return self.pack_bytes(values[0], coord)

    def intrinsic_pack_s8(self, values, places, result, coord):
        return self.pack_bytes(values[0], coord)

    def intrinsic_pack_clamp_u8(self, values, places, result, coord):
        return self.pack_bytes(self._clamped(values[0], 0, 255, coord), coord)

    def intrinsic_pack_clamp_s8(self, values, places, result, coord):
        return self.pack_bytes(self._clamped(values[0], -128, 127, coord), coord)


COMPOSED = frozenset(name[len("intrinsic_"):] for name in vars(ComposedIntrinsics) if name.startswith("intrinsic_"))
