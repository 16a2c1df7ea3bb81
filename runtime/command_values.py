"""What ``shc run``'s options name, as the values a dispatch binds, and outputs saved to files.

- ``--set NAME=1,2,3``: any constant-buffer field or global uniform. The numbers fill the
  field's type in declaration order: a vector's components, a matrix row by row, an array
  element by element, a struct member by member. ``--set NAME.member=...`` and
  ``--set NAME[2]=...`` (nested: ``lights[1].colour``) set one part; the other parts are 0.
  ``true``/``false`` are 1/0.
- ``--sampler NAME=FILTER,ADDRESS[,R,G,B,A]``: a ``SamplerState``; filter ``point`` or
  ``linear``, address ``clamp``, ``wrap``, ``mirror`` or ``border`` (its colour: four numbers,
  default 0,0,0,0).
- ``--output NAME=DIMS[:DTYPE]`` (``512x512x4:float32``): a zeroed array of that shape; a
  buffer's element axes may be left out (``1024`` for a ``float4`` buffer is 1024 x 4), and
  its dtype is the element's; a texture's default is its texel format (float32, uint32, int32).
- ``save``: ``.png`` for a 2-D texture's (H, W[, C]) array (uint8 as it is, float clipped to
  [0, 1] and scaled to 8 bits; C of 1 to 4 is grey, grey+alpha, RGB, RGBA), ``.npy`` otherwise.
"""

from __future__ import annotations

import re

import numpy as np

from ..compiler.frontend import hlsl_types as T
from .layout import element_shape
from .resources import Sampler, binding_category
from .textures import texel_dtype

__all__ = ["UsageError", "check_png", "constant_values", "created_array", "missing_constants", "parse_sampler",
           "save_array", "shape_spec"]


class UsageError(ValueError):
    """A command-line argument that cannot be used (reported as ``shc: error: ...``)."""


# ---------------------------------------------------------------------------------------
# --set
# ---------------------------------------------------------------------------------------

_PATH_PART = re.compile(r"\.([A-Za-z_]\w*)|\[(\d+)\]")


def constant_values(layouts: dict, pairs: dict[str, str]) -> dict:
    """Each ``--set`` target's field (by its root name) as the value ``dispatch`` binds."""
    fields = {member.name: member for layout in layouts.values() for member in layout.fields}
    values: dict = {}
    for target, text in pairs.items():
        root, path = _split_path(target)
        member = fields.get(root)
        if member is None:
            known = ", ".join(sorted(name for name in fields if not name.startswith("$"))) or "none"
            raise UsageError(f"--set {target}: the kernel has no constant named '{root}' (its constants: {known})")
        numbers = _numbers(target, text)
        if not path:
            values[root] = _fill(target, member.type, numbers)
            continue
        whole = values.get(root)
        if whole is None:
            whole = _fill(target, member.type, [0] * _scalars(member.type))
        values[root] = _assign(target, member.type, whole, path, numbers)
    return values


def missing_constants(layouts: dict, given: dict) -> list[tuple[str, str, str]]:
    """(name, type, where) of every field the kernel reads that ``--set`` did not give."""
    missing = []
    for layout in layouts.values():
        where = "the global uniforms" if layout.name == "$Globals" else f"cbuffer '{layout.name}'"
        missing += [(member.name, str(member.type), where) for member in layout.fields
                    if member.required and member.name not in given]
    return missing


def _split_path(target: str) -> tuple[str, list]:
    match = re.match(r"[A-Za-z_]\w*", target)
    if match is None:
        raise UsageError(f"--set expects NAME=VALUE (or NAME.member / NAME[i]), not '{target}'")
    path, rest = [], target[match.end():]
    while rest:
        part = _PATH_PART.match(rest)
        if part is None:
            raise UsageError(f"--set {target}: expected .member or [index] after '{target[:len(target) - len(rest)]}'")
        path.append(part.group(1) if part.group(1) is not None else int(part.group(2)))
        rest = rest[part.end():]
    return match.group(0), path


def _numbers(target: str, text: str) -> list:
    numbers = []
    for part in (part.strip() for part in text.split(",")):
        if part.lower() in ("true", "false"):
            numbers.append(int(part.lower() == "true"))
            continue
        try:
            if re.fullmatch(r"[+-]?0[xX][0-9a-fA-F]+", part):
                numbers.append(int(part, 16))
            elif re.fullmatch(r"[+-]?\d+", part):
                numbers.append(int(part))
            else:
                numbers.append(float(part))
        except ValueError:
            raise UsageError(f"--set {target}: expected numbers separated by commas, not '{text}'") from None
    return numbers


def _scalars(t: T.Type) -> int:
    """How many numbers fill ``t``."""
    if isinstance(t, T.ScalarType):
        return 1
    if isinstance(t, T.VectorType):
        return t.size
    if isinstance(t, T.MatrixType):
        return t.rows * t.cols
    if isinstance(t, T.ArrayType):
        return (t.size or 0) * _scalars(t.element)
    if isinstance(t, T.StructType):
        return sum(_scalars(member) for _, member in t.fields)
    return 0


def _how(t: T.Type) -> str:
    if isinstance(t, T.MatrixType):
        return " (row by row)"
    if isinstance(t, T.ArrayType):
        return " (element by element)"
    if isinstance(t, T.StructType):
        return f" ({', '.join(name for name, _ in t.fields)} in order)"
    return ""


def _fill(target: str, t: T.Type, numbers: list):
    """``numbers`` shaped as ``t``: a number, a list, a list of rows, a list of parts, a dict."""
    count = _scalars(t)
    if len(numbers) != count:
        raise UsageError(f"--set {target}: {t} takes {count} number{'s' if count != 1 else ''}{_how(t)}, "
                         f"got {len(numbers)}")
    return _shape(t, iter(numbers))


def _shape(t: T.Type, numbers):
    if isinstance(t, T.ScalarType):
        return next(numbers)
    if isinstance(t, T.VectorType):
        return [next(numbers) for _ in range(t.size)]
    if isinstance(t, T.MatrixType):
        return [[next(numbers) for _ in range(t.cols)] for _ in range(t.rows)]
    if isinstance(t, T.ArrayType):
        return [_shape(t.element, numbers) for _ in range(t.size or 0)]
    if isinstance(t, T.StructType):
        return {name: _shape(member, numbers) for name, member in t.fields}
    raise UsageError(f"a {t} cannot be set from the command line")


def _assign(target: str, t: T.Type, whole, path: list, numbers: list):
    """``whole`` with the part ``path`` names replaced by ``numbers``."""
    if not path:
        return _fill(target, t, numbers)
    step, rest = path[0], path[1:]
    if isinstance(t, T.StructType) and isinstance(step, str):
        members = dict(t.fields)
        if step not in members:
            raise UsageError(f"--set {target}: struct {t} has no member '{step}' "
                             f"(its members: {', '.join(members)})")
        whole[step] = _assign(target, members[step], whole[step], rest, numbers)
        return whole
    if isinstance(step, int) and isinstance(t, (T.ArrayType, T.VectorType, T.MatrixType)):
        length = t.size if not isinstance(t, T.MatrixType) else t.rows
        part = t.element if isinstance(t, T.ArrayType) else t.element if isinstance(t, T.VectorType) \
            else T.VectorType(t.element, t.cols)
        if step >= (length or 0):
            raise UsageError(f"--set {target}: index {step} is outside {t} (0..{(length or 0) - 1})")
        whole[step] = _assign(target, part, whole[step], rest, numbers)
        return whole
    what = f"member '{step}'" if isinstance(step, str) else f"index [{step}]"
    raise UsageError(f"--set {target}: a {t} has no {what}")


# ---------------------------------------------------------------------------------------
# --sampler
# ---------------------------------------------------------------------------------------

FILTERS = ("point", "linear")
ADDRESSES = ("clamp", "wrap", "mirror", "border")


def parse_sampler(name: str, text: str) -> Sampler:
    """``linear,clamp``, ``point,border,0,0,0,1``, ``linear`` (clamp), ``wrap`` (point)."""
    words = [part.strip().lower() for part in text.split(",") if part.strip()]
    filters = [word for word in words if word in FILTERS]
    addresses = [word for word in words if word in ADDRESSES]
    rest = [word for word in words if word not in FILTERS and word not in ADDRESSES]
    usage = (f"--sampler {name}={text}: expected FILTER,ADDRESS[,R,G,B,A] with FILTER {' or '.join(FILTERS)} "
             f"and ADDRESS {', '.join(ADDRESSES)}")
    if len(filters) > 1 or len(addresses) > 1:
        raise UsageError(usage)
    try:
        colour = [float(word) for word in rest]
    except ValueError:
        raise UsageError(usage) from None
    address = addresses[0] if addresses else "clamp"
    if colour and (address != "border" or len(colour) != 4):
        raise UsageError(f"--sampler {name}={text}: a border colour is four numbers (R,G,B,A) after 'border'")
    return Sampler(filters[0] if filters else "point", address, tuple(colour or (0.0, 0.0, 0.0, 0.0)))


# ---------------------------------------------------------------------------------------
# --output NAME=DIMS[:DTYPE]
# ---------------------------------------------------------------------------------------

_SHAPE = re.compile(r"(\d+(?:x\d+)*)(?::(\w+))?")


def shape_spec(text: str) -> tuple[tuple[int, ...], str | None] | None:
    """``(shape, dtype name)`` when ``text`` is ``DIMS[:DTYPE]`` (``512x512x4:float32``), else None (a file)."""
    match = _SHAPE.fullmatch(text.strip())
    if match is None:
        return None
    return tuple(int(n) for n in match.group(1).split("x")), match.group(2)


def created_array(name: str, binding, shape: tuple[int, ...], dtype_name: str | None) -> np.ndarray:
    """Zeros for ``--output NAME=DIMS[:DTYPE]``."""
    spec = "x".join(map(str, shape)) + (f":{dtype_name}" if dtype_name else "")
    if any(n == 0 for n in shape):
        raise UsageError(f"--output {name}={spec}: every dimension must be at least 1")
    category = binding_category(binding.kind)
    if category not in ("buffer", "byte_address", "texture") or binding.count != 1:
        raise UsageError(f"--output {name}={spec}: '{name}' is a {binding.kind}"
                         f"{'' if binding.count == 1 else ' array'}; only single buffers and textures are created")
    if category == "texture":
        default = texel_dtype(binding.element)
    elif category == "byte_address":
        default = np.dtype(np.uint32)
    else:
        default, element_axes = element_shape(binding.element)
        if element_axes and shape[-len(element_axes):] != element_axes:
            shape = shape + element_axes  # 1024 for a float4 buffer: 1024 elements
    try:
        dtype = np.dtype(dtype_name) if dtype_name else default
    except TypeError:
        raise UsageError(f"--output {name}={spec}: unknown dtype '{dtype_name}' (float32, float16, uint8, uint32, "
                         f"int32, ...)") from None
    if category == "buffer" and dtype != default:
        raise UsageError(f"--output {name}={spec}: '{name}' holds {binding.element} elements, stored as {default}")
    if int(np.prod(shape)) * dtype.itemsize > 2**31 - 1:
        raise UsageError(f"--output {name}={spec}: {int(np.prod(shape)) * dtype.itemsize:,} bytes; "
                         f"a resource holds at most 2 GiB - 1")
    return np.zeros(shape, dtype=dtype)


# ---------------------------------------------------------------------------------------
# saving
# ---------------------------------------------------------------------------------------

_PNG_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}


def save_array(name: str, array: np.ndarray, path: str, kind: str) -> None:
    """``path`` ending in .png: a 2-D texture as an 8-bit image; anything else: ``np.save``."""
    if not path.lower().endswith(".png"):
        np.save(path, array, allow_pickle=False)
        return
    pixels = png_pixels(name, array, path, kind)
    from PIL import Image

    Image.fromarray(np.ascontiguousarray(pixels), _PNG_MODES[1 if pixels.ndim == 2 else pixels.shape[-1]]).save(path)


def png_pixels(name: str, array: np.ndarray, path: str, kind: str) -> np.ndarray:
    """The 8-bit pixels of a 2-D texture's array."""
    check_png(name, array, path, kind)
    pixels = array[..., 0] if array.ndim == 3 and array.shape[-1] == 1 else array
    if pixels.dtype == np.uint8:
        return pixels
    clipped = np.clip(np.nan_to_num(pixels.astype(np.float32), nan=0.0), 0.0, 1.0)
    return np.rint(clipped * 255.0).astype(np.uint8)


def check_png(name: str, array: np.ndarray, path: str, kind: str) -> None:
    """UsageError, before the dispatch, for what a PNG cannot show (``path`` ends in .png)."""
    if "Texture2D" not in kind or kind.endswith("Array") or binding_category(kind) != "texture":
        raise UsageError(f"cannot save {name}={path}: a PNG holds a 2-D texture, and '{name}' is a {kind} "
                         f"(save it as .npy)")
    if not (array.ndim == 2 or (array.ndim == 3 and 1 <= array.shape[-1] <= 4)):
        raise UsageError(f"cannot save {name}={path}: shape {array.shape} is not (H, W) or (H, W, C) with C of 1 to 4")
    if array.dtype != np.uint8 and array.dtype.kind != "f":
        raise UsageError(f"cannot save {name}={path}: a PNG takes uint8 or float data in [0, 1], not {array.dtype} "
                         f"(save it as .npy)")
