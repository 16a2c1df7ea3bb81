"""A texture store's channels as the bound format keeps them: what the host JIT writes into its
32-bit texels, so a texel read back in the same dispatch reads what the GPU would read.

The JIT keeps every texture as 4 channels of 32 bits for the whole dispatch, and the runtime
converts the written ones to the caller's format after it (``runtime/textures.py``). A GPU
converts at the store instead, so a read of the same texel later in the dispatch gets the
stored value rounded, clamped or saturated, and the channels the format lacks as 0, 0, 0, 1.
The format is known only at bind time: the runtime puts it in the slot's meta
(``abi.META_TEXEL_FORMAT``, ``abi.META_ABSENT_CHANNELS``), and each store site reads it:

- both 0 (32-bit channels, all four there: every float32 or 32-bit integer RGBA texture,
  SPD's among them): a uniform branch past the conversion, nothing else;
- otherwise one call of ``@shc.stored.<type>.<width>``, out of line, which applies
  ``decode(encode(value))`` of ``machine/texels.py`` channel by channel, in float32 as NumPy
  computes it (so the runtime's write-back and the listing simulator agree bit for bit):

      16_FLOAT          fpext(fptrunc(v)): half's rounding to nearest even, infinity past it
      8/16_UNORM        uitofp(fptoui(roundeven(min(max(v, 0), 1) * s))) / s, s = 255 or 65535
                        (maxnum gives 0 for NaN, as NumPy's nan_to_num)
      8/16_UINT/SINT    clamped to the format's range (smin/smax for int texels, umin for uint)

  and a channel the caller's array lacks becomes 0 (x, y, z) or 1 (w).
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from .llvm_text import V, element, is_vector, mangle

# gfx10 one-channel format numbers (machine/texels.py channel_format)
_UNORM8, _UINT8, _SINT8, _UNORM16, _UINT16, _SINT16, _FLOAT16 = 1, 5, 6, 7, 11, 12, 13
_INTEGER_RANGES = {_UINT8: (0, 255), _SINT8: (-128, 127), _UINT16: (0, 65535), _SINT16: (-32768, 32767)}


def as_stored(em, slot, storage: T.ScalarType, parts: list[V]) -> list[V]:
    """``parts`` (the first ``len(parts)`` channels a store writes, of ``storage``'s 32-bit type)
    as the texture bound at ``slot`` keeps them."""
    b = em.b
    rounding, absent = slot.meta("texel_format"), slot.meta("absent_channels")
    needed = b.icmp("ne", rounding, b.zero(rounding.ty))
    if len(parts) > 1:  # the store writes a channel the array may lack
        lacking = b.icmp("ugt", absent, b.const(absent.ty, 4 - len(parts)))
        needed = b.binop("or", needed, lacking)
    if is_vector(needed.ty):  # a lane-varying resource array index: any lane's texture
        needed = b.any_lane(needed)
    if any(is_vector(value.ty) for value in parts + [rounding, absent]):  # one type for every channel
        parts = [b.splat(part) for part in parts]
    # a block of its own to branch from (the builder's current label is stale after a helper)
    kept_from, convert, done = b.label("format"), b.label("rounded"), b.label("stored_as")
    b.start(kept_from)
    b.cbr(needed, convert, done)
    b.start(convert)
    name, result = _helper(b, storage, parts[0].ty, rounding.ty, len(parts))
    called = b.inst(result, f"call {result} @{name}({rounding}, {absent}, " + ", ".join(map(str, parts)) + ")")
    converted = [b.inst(parts[0].ty, f"extractvalue {called}, {index}") for index in range(len(parts))]
    b.br(done)
    b.start(done)
    return [b.inst(part.ty, f"phi {part.ty} [ {part.ref}, %{kept_from} ], [ {new.ref}, %{convert} ]")
            for part, new in zip(parts, converted)]


def _helper(b, storage: T.ScalarType, ty: str, index_ty: str, width: int) -> tuple[str, str]:
    """``@shc.stored...``: (rounding, absent, channel 0, ...) -> the channels as stored. The format
    (``index_ty``) is one i32 for the wave, or a lane vector when lanes index different textures."""
    result = "{ " + ", ".join([ty] * width) + " }"
    name = f"shc.stored.{storage.kind}.{mangle(ty)}.{mangle(index_ty)}.{width}"
    if name in b.helpers:
        return name, result
    with b.detached() as lines:
        rounding, absent = V(index_ty, "%p0"), V(index_ty, "%p1")
        channels = [V(ty, f"%p{2 + k}") for k in range(width)]
        rounded = [_rounded_float(b, rounding, value) if storage.kind == "float" else
                   _saturated(b, rounding, value, signed=storage.kind == "int") for value in channels]
        for k in range(1, width):  # channel k is there when absent < 4 - k
            present = b.icmp("ult", absent, b.const(index_ty, 4 - k))
            default = b.const(ty, 1.0 if storage.kind == "float" else 1) if k == 3 else b.zero(ty)
            rounded[k] = b.select(present, rounded[k], default)
        current = "poison"
        for index, channel in enumerate(rounded):
            current = b.inst(result, f"insertvalue {result} {current}, {channel}, {index}").ref
        b.terminate(f"ret {result} {current}")
    b.helper(name, result, [index_ty, index_ty] + [ty] * width, [line.strip() for line in lines], "read")
    return name, result


def _is(b, rounding: V, number: int) -> V:
    return b.icmp("eq", rounding, b.const(rounding.ty, number))


def _rounded_float(b, rounding: V, value: V) -> V:
    ty = value.ty
    half_ty = b.vec("half") if is_vector(ty) else "half"
    halved = b.cast("fpext", b.cast("fptrunc", value, half_ty), ty)
    scale = b.select(_is(b, rounding, _UNORM8), b.const(ty, 255.0), b.const(ty, 65535.0))
    clamped = b.call(ty, "llvm.minnum", [b.call(ty, "llvm.maxnum", [value, b.zero(ty)]), b.const(ty, 1.0)])
    steps = b.call(ty, "llvm.roundeven", [b.binop("fmul", clamped, scale)])
    integer_ty = ty.replace(element(ty), "i32")
    unorm = b.binop("fdiv", b.cast("uitofp", b.cast("fptoui", steps, integer_ty), ty), scale)
    is_unorm = b.binop("or", _is(b, rounding, _UNORM8), _is(b, rounding, _UNORM16))
    return b.select(_is(b, rounding, _FLOAT16), halved, b.select(is_unorm, unorm, value))


def _saturated(b, rounding: V, value: V, signed: bool) -> V:
    ty = value.ty
    low, high = b.const(ty, -2 ** 31 if signed else 0), b.const(ty, 2 ** 31 - 1 if signed else -1)
    for number, (smallest, largest) in _INTEGER_RANGES.items():
        chosen = _is(b, rounding, number)
        low, high = b.select(chosen, b.const(ty, smallest), low), b.select(chosen, b.const(ty, largest), high)
    if signed:
        return b.call(ty, "llvm.smin", [b.call(ty, "llvm.smax", [value, low]), high])
    return b.call(ty, "llvm.umin", [value, high])  # every range starts at or below 0
