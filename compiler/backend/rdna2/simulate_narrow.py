"""The listing simulator's f32 and f16 ALU (with source modifiers and clamp), packed halves,
16-bit integers, and the f32/f16 fmas, which round once (``ir/interpret/fused.py``)."""

from __future__ import annotations

import numpy as np

from ...ir.interpret.fused import fused_multiply_add
from .machine import MInst
from .simulate_operands import halves, put_word, singles

def _fma32(machine, inst):
    if inst.mnemonic == "v_fmac_f32":
        a, b = singles(machine, inst, 2)
        c = machine.vector(inst.defs[0]).view(np.float32)
    else:
        a, b, c = singles(machine, inst, 3)
    put_word(machine, inst, fused_multiply_add(a, b, c).view(np.uint32))


def _fma16(machine, inst):
    if inst.mnemonic == "v_fmac_f16":
        a, b = halves(machine, inst, 2)
        c = (machine.vector(inst.defs[0]) & np.uint32(0xFFFF)).astype(np.uint16).view(np.float16)
    else:
        a, b, c = halves(machine, inst, 3)
    put_word(machine, inst, fused_multiply_add(a, b, c).view(np.uint16))


def _clamped(inst: MInst, values: np.ndarray) -> np.ndarray:
    if "clamp" not in inst.modifiers:
        return values
    return np.where(np.isnan(values), 0, np.clip(values, 0, 1)).astype(values.dtype)


def _float_op(function, width: int, count: int):
    """An f32 or f16 VOP with source modifiers and clamp; f16 results zero the high half."""
    def run(machine, inst):
        sources = singles(machine, inst, count) if width == 32 else halves(machine, inst, count)
        with np.errstate(all="ignore"):
            result = _clamped(inst, np.asarray(function(*sources), dtype=sources[0].dtype))
        put_word(machine, inst, result.view(np.uint32 if width == 32 else np.uint16))
    return run


def _fract(x):
    """x - floor(x), below 1 (the hardware clamps the result to the largest float under 1)."""
    below_one = np.nextafter(np.ones_like(x), np.zeros_like(x))
    return np.where(np.isinf(x), np.nan, np.minimum(x - np.floor(x), below_one))


def _int16_op(function, signed: bool, count: int = 2):
    def run(machine, inst):
        sources = [(machine.vector(op) & np.uint32(0xFFFF)).astype(np.uint16) for op in inst.uses[:count]]
        if signed:
            sources = [value.view(np.int16) for value in sources]
        with np.errstate(all="ignore"):
            result = np.asarray(function(*sources)).astype(np.int64) & 0xFFFF
        put_word(machine, inst, result)
    return run


def _packed(function, kind: str):
    """A ``v_pk_*`` op: the function on the low halves and on the high halves (``neg_lo``/``neg_hi``)."""
    def run(machine, inst):
        count = len(inst.uses)
        negate = {name: [int(x) for x in (part.split(":")[1].strip("[]").split(","))]
                  for part in inst.modifiers.split() if part.startswith(("neg_lo", "neg_hi"))
                  for name in [part.split(":")[0]]}
        words_in = [machine.vector(op).astype(np.uint32) for op in inst.uses]
        halves_out = []
        for shift, flag in ((0, "neg_lo"), (16, "neg_hi")):
            parts = []
            for index, word in enumerate(words_in):
                bits = ((word >> np.uint32(shift)) & np.uint32(0xFFFF)).astype(np.uint16)
                if kind == "f16":
                    if negate.get(flag, [0] * count)[index]:
                        bits = bits ^ np.uint16(0x8000)
                    parts.append(bits.view(np.float16))
                else:
                    parts.append(bits.view(np.int16) if kind == "i16" else bits)
            with np.errstate(all="ignore"):
                value = np.asarray(function(*parts))
            bits = value.astype(np.float16).view(np.uint16) if kind == "f16" else value.astype(np.int64) & 0xFFFF
            halves_out.append(bits.astype(np.uint32))
        put_word(machine, inst, halves_out[0] | (halves_out[1] << np.uint32(16)))
    return run


def _shift16(kind: str):
    def shift(amount, value):
        amount = amount.astype(np.int64) & 15
        if kind == "lshl":
            return value.astype(np.int64) << amount
        return value.astype(np.int64) >> amount  # arithmetic for int16 values, logical for uint16
    return shift


def _cvt16(machine, inst):
    name = inst.mnemonic
    low = (machine.vector(inst.uses[0]) & np.uint32(0xFFFF)).astype(np.uint16)
    with np.errstate(all="ignore"):
        if name in ("v_cvt_f16_i16", "v_cvt_f16_u16"):
            source = low.view(np.int16) if name.endswith("i16") else low
            put_word(machine, inst, source.astype(np.float16).view(np.uint16))
            return
        value = np.nan_to_num(np.trunc(low.view(np.float16).astype(np.float64)), nan=0.0)
        bounds = (-32768, 32767) if name == "v_cvt_i16_f16" else (0, 65535)
        put_word(machine, inst, np.clip(value, *bounds).astype(np.int64) & 0xFFFF)


def _toward_zero16(values: np.ndarray) -> np.ndarray:
    """f32 values to f16 bits rounded toward zero: past the largest half is 65504, not inf."""
    with np.errstate(all="ignore"):
        nearest = values.astype(np.float16)
    bits = nearest.view(np.uint16).astype(np.int32)
    finite = np.isfinite(values)
    away = finite & (np.abs(nearest.astype(np.float32)) > np.abs(values))  # rounded up in magnitude
    return np.where(away, bits - 1, bits).astype(np.uint32) & 0xFFFF


def _pack_toward_zero(machine, inst):
    """``v_cvt_pkrtz_f16_f32 d, a, b``: a in the low half, b in the high half."""
    low, high = (_toward_zero16(value) for value in singles(machine, inst, 2))
    put_word(machine, inst, low | (high << 16))


def _cmp16(condition: str, signed: bool):
    tests = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
             "ge": np.greater_equal}

    def run(machine, inst):
        a, b = ((machine.vector(op) & np.uint32(0xFFFF)).astype(np.uint16) for op in inst.uses[:2])
        if signed:
            a, b = a.view(np.int16), b.view(np.int16)
        machine.write_mask(inst.defs[0], tests[condition](a, b) & machine.exec)
    return run


HANDLERS: dict = {"v_fma_f32": _fma32, "v_fmac_f32": _fma32}
_FLOAT_BINARY = {"add": np.add, "sub": np.subtract, "subrev": lambda a, b: b - a, "mul": np.multiply,
                 "min": np.fmin, "max": np.fmax}
_FLOAT_UNARY = {"sqrt": np.sqrt, "rcp": lambda x: np.ones_like(x) / x, "floor": np.floor, "ceil": np.ceil,
                "trunc": np.trunc, "rndne": np.rint, "fract": _fract}
for _width, _suffix in ((32, "f32"), (16, "f16")):
    for _stem, _function in _FLOAT_BINARY.items():
        HANDLERS[f"v_{_stem}_{_suffix}"] = _float_op(_function, _width, 2)
    for _stem, _function in _FLOAT_UNARY.items():
        HANDLERS[f"v_{_stem}_{_suffix}"] = _float_op(_function, _width, 1)
HANDLERS.update({"v_fma_f16": _fma16, "v_fmac_f16": _fma16, "v_cvt_f16_i16": _cvt16, "v_cvt_f16_u16": _cvt16,
                 "v_cvt_i16_f16": _cvt16, "v_cvt_u16_f16": _cvt16, "v_cvt_pkrtz_f16_f32": _pack_toward_zero})
for _signed, _kind in ((False, "u16"), (True, "i16")):
    HANDLERS[f"v_min_{_kind}"] = _int16_op(np.minimum, _signed)
    HANDLERS[f"v_max_{_kind}"] = _int16_op(np.maximum, _signed)
    HANDLERS[f"v_pk_min_{_kind}"] = _packed(np.minimum, _kind)
    HANDLERS[f"v_pk_max_{_kind}"] = _packed(np.maximum, _kind)
    for _condition in ("eq", "ne", "lt", "le", "gt", "ge"):
        HANDLERS[f"v_cmp_{_condition}_{_kind}"] = _cmp16(_condition, _signed)
HANDLERS.update({
    "v_add_nc_u16": _int16_op(np.add, False), "v_sub_nc_u16": _int16_op(np.subtract, False),
    "v_mul_lo_u16": _int16_op(np.multiply, False),
    "v_lshlrev_b16": _int16_op(_shift16("lshl"), False), "v_lshrrev_b16": _int16_op(_shift16("shr"), False),
    "v_ashrrev_i16": _int16_op(lambda a, b: _shift16("shr")(a, b.view(np.int16)), False),
    "v_pk_add_u16": _packed(np.add, "u16"), "v_pk_sub_u16": _packed(np.subtract, "u16"),
    "v_pk_sub_i16": _packed(np.subtract, "i16"), "v_pk_mul_lo_u16": _packed(np.multiply, "u16"),
    "v_pk_lshlrev_b16": _packed(_shift16("lshl"), "u16"), "v_pk_lshrrev_b16": _packed(_shift16("shr"), "u16"),
    "v_pk_ashrrev_i16": _packed(lambda a, b: _shift16("shr")(a, b.view(np.int16)), "u16"),
    "v_pk_add_f16": _packed(np.add, "f16"), "v_pk_mul_f16": _packed(np.multiply, "f16"),
    "v_pk_min_f16": _packed(np.fmin, "f16"), "v_pk_max_f16": _packed(np.fmax, "f16"),
    "v_pk_fma_f16": _packed(lambda a, b, c: fused_multiply_add(a, b, c), "f16"),
})


# v_cube{id,sc,tc,ma}_f32 by part: ``pick(on z, on y, on x)`` chooses by the major axis
_CUBE_PARTS = {
    "id": lambda x, y, z, pick: pick(np.where(z < 0, 5.0, 4.0), np.where(y < 0, 3.0, 2.0), np.where(x < 0, 1.0, 0.0)),
    "sc": lambda x, y, z, pick: pick(np.where(z < 0, -x, x), x, np.where(x < 0, z, -z)),
    "tc": lambda x, y, z, pick: pick(-y, np.where(y < 0, -z, z), -y),
    "ma": lambda x, y, z, pick: np.float32(2.0) * pick(z, y, x),
}


def _cube(part: str):
    """``v_cube{id,sc,tc,ma}_f32 d, x, y, z``: a direction's cube face (0..5 for +X, -X, +Y, -Y,
    +Z, -Z, as a float), its face coordinates before the division (sc, tc), and twice its major
    component (ma, signed). The major axis is z when |z| >= |x| and |z| >= |y|, else y when
    |y| >= |x|, else x; a negative major component picks the negative face."""
    def run(machine, inst):
        x, y, z = singles(machine, inst, 3)
        ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
        on_z = (az >= ax) & (az >= ay)
        on_y = ~on_z & (ay >= ax)

        def pick(when_z, when_y, when_x):
            return np.where(on_z, when_z, np.where(on_y, when_y, when_x))

        with np.errstate(all="ignore"):
            result = _CUBE_PARTS[part](x, y, z, pick)
        put_word(machine, inst, np.asarray(result, dtype=np.float32).view(np.uint32))
    return run


HANDLERS.update({f"v_cube{part}_f32": _cube(part) for part in ("id", "sc", "tc", "ma")})
