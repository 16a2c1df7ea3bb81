"""The descriptors the listing simulator's ``s_load_dwordx4/x8`` read from the descriptor table:
real gfx10 words, built from what is bound, with every field where RDNA2 has it.

Buffer (V#, 4 dwords)::

    dword 0   base address [31:0]
    dword 1   base address [47:32] in [15:0], stride in [29:16]
    dword 2   num_records (structured and typed buffers: elements; raw buffers, cbuffers: bytes)
    dword 3   dst_sel x/y/z/w in [11:0], format in [18:12], oob_select in [29:28], type 0

Image (T#, 8 dwords)::

    dword 0   base address [39:8]
    dword 1   base address [47:40] in [7:0], format in [28:20], (width - 1) [1:0] in [31:30]
    dword 2   (width - 1) [13:2] in [11:0], height - 1 in [27:14], resource_level (bit 31)
    dword 3   dst_sel in [11:0], base_level [15:12], last_level [19:16], type in [31:28]
    dword 4   depth - 1 (3-D), or the last array slice, in [12:0]
    dword 5   max_mip in [7:4]

Sampler (S#, 4 dwords)::

    dword 0   clamp_x/y/z in [2:0], [5:3], [8:6] (0 wrap, 1 mirror, 2 clamp to the last texel,
              6 clamp to the border), depth_compare_func in [14:12] (``abi.COMPARISONS``' order)
    dword 2   xy_mag_filter [21:20], xy_min_filter [23:22] (0 point, 1 bilinear),
              mip_filter [27:26] (1 point, 2 linear)
    dword 3   border_color_ptr in [11:0], border_color_type in [31:30] (3: from the table)

Addresses: binding ``b``'s element ``e`` lives at ``(b + 1) << 40 | e << 24`` (256-byte
aligned, as image bases are), so an instruction finds the array it addresses from the
descriptor's base address alone (``resource``). Formats are the unified gfx10 numbers of
``machine/texels.py``; a sampler's border color is entry ``border_color_ptr`` of the
machine's border color table, as on the hardware.
"""

from __future__ import annotations

import numpy as np

from ...frontend import hlsl_types as T
from ...ir.lower.globals import tight_size
from ...machine.abi import COMPARISONS
from ...machine.sampling import ADDRESS_MODES
from ...machine.texels import format_number

_SEL = {"x": 4, "y": 5, "z": 6, "w": 7, "0": 0, "1": 1}
_IMAGE_TYPES = {1: 8, 2: 9, 3: 10}  # SQ_RSRC_IMG_1D, 2D, 3D by texel axes; arrays and cubes below
_ARRAY_TYPES = {"Texture1DArray": 12, "Texture2DArray": 13, "TextureCube": 11, "TextureCubeArray": 11}
_CLAMP = {0: 2, 1: 0, 2: 1, 3: 6}  # the runtime's address mode -> SQ_TEX_CLAMP
_CLAMP_BACK = {2: 0, 0: 1, 1: 2, 6: 3}


def address_of(binding: int, element: int) -> int:
    return (binding + 1) << 40 | element << 24


def base_kind(kind: str) -> str:
    return kind.removeprefix("RW")


def dst_sel(channels: int) -> int:
    """x, y, z, w for the channels a format has, 0 0 0 1 for the others."""
    names = "xyzw"[:channels] + "001"[channels - 1:] if channels < 4 else "xyzw"
    return sum(_SEL[name] << (3 * k) for k, name in enumerate(names[:4]))


def field(word: int, low: int, width: int) -> int:
    return (word >> low) & ((1 << width) - 1)


# --------------------------------------------------------------------------------- buffers
def buffer_words(binding, index: int, element: int, data) -> list[int]:
    """V# of a buffer (its bytes: ``data``), a cbuffer, or a typed buffer of ``binding.element``."""
    size = len(data) if isinstance(data, (bytes, bytearray)) else (0 if data is None else data.nbytes)
    kind = binding.kind
    structured = binding.element is not None and kind not in ("cbuffer", "ConstantBuffer") and \
        kind in T.RESOURCE_KINDS and not kind.endswith("ByteAddressBuffer")
    stride = tight_size(binding.element) if structured else 0
    records = size // stride if stride else size
    fmt, channels = 22, 1  # 32_FLOAT: raw and structured buffers move dwords
    if kind in ("Buffer", "RWBuffer"):
        scalar = T.element_of(binding.element) or T.FLOAT
        channels = max(1, stride // max(1, scalar.bits // 8))
        dtype = np.dtype(f"{'f' if scalar.kind == 'float' else 'i' if scalar.kind == 'int' else 'u'}"
                         f"{scalar.bits // 8}")
        fmt = format_number(dtype, channels, scalar.kind != "float")
    address = address_of(index, element)
    oob_select = 0 if structured else 3
    return [address & 0xFFFFFFFF, (address >> 32) & 0xFFFF | (stride & 0x3FFF) << 16, records & 0xFFFFFFFF,
            dst_sel(channels) | fmt << 12 | 1 << 24 | oob_select << 28]


def buffer_stride(words) -> int:
    return field(words[1], 16, 14)


def buffer_format(words) -> int:
    return field(words[3], 12, 7)


def resource(machine, first: int, image: bool = False):
    """(binding, element) a descriptor in SGPRs ``first``.. addresses, from its base address."""
    low, high = int(machine.s[first]) & 0xFFFFFFFF, int(machine.s[first + 1]) & 0xFFFFFFFF
    address = ((high & 0xFF) << 32 | low) << 8 if image else (high & 0xFFFF) << 32 | low
    number, element = (address >> 40) - 1, (address >> 24) & 0xFFFF
    if not 0 <= number < len(machine.bindings):
        raise KeyError(f"no resource at address 0x{address:x} (s[{first}:{first + 1}] hold no descriptor)")
    return machine.bindings[number], element


# --------------------------------------------------------------------------------- images
def storage_axes(kind: str) -> int:
    """Axes of a texture's array before the channel axis (a cube: faces, height, width)."""
    return 3 if kind in T.CUBE_KINDS else T.RESOURCE_KINDS[kind][1]


def shape3(kind: str, array: np.ndarray) -> tuple[int, int, int, int]:
    """(depth or slices, height, width, channels) of one level of a texture array."""
    axes = storage_axes(kind)
    spatial = array.shape[:axes]
    channels = array.shape[axes] if array.ndim > axes else 1
    if axes == 1:
        return 1, 1, spatial[0], channels
    if base_kind(kind) == "Texture1DArray":
        return spatial[0], 1, spatial[1], channels
    if axes == 2:
        return 1, spatial[0], spatial[1], channels
    return spatial[0], spatial[1], spatial[2], channels


def is_integer(binding) -> bool:
    scalar = T.element_of(binding.element) if binding.element is not None else T.FLOAT
    return scalar is not None and scalar.kind in ("int", "uint")


def image_words(binding, index: int, element: int, levels: list) -> list[int]:
    """T# of a texture given as its mip levels (caller arrays: ``runtime/textures.py``)."""
    kind = base_kind(binding.kind)
    depth, height, width, channels = shape3(binding.kind, levels[0])
    fmt = format_number(levels[0].dtype, channels, is_integer(binding))
    image_type = _ARRAY_TYPES.get(kind, _IMAGE_TYPES.get(T.RESOURCE_KINDS[binding.kind][1]))
    address = address_of(index, element) >> 8
    last = len(levels) - 1
    return [address & 0xFFFFFFFF,
            (address >> 32) & 0xFF | fmt << 20 | ((width - 1) & 3) << 30,
            ((width - 1) >> 2) & 0xFFF | ((height - 1) & 0x3FFF) << 14 | 1 << 31,
            dst_sel(channels) | last << 16 | image_type << 28,
            (depth - 1) & 0x1FFF, last << 4, 0, 0]


def image_sizes(words) -> dict:
    """width, height, depth (or slices), mips and format of a T#."""
    width = (field(words[1], 30, 2) | field(words[2], 0, 12) << 2) + 1
    return {"width": width, "height": field(words[2], 14, 14) + 1, "depth": field(words[4], 0, 13) + 1,
            "mips": field(words[3], 16, 4) + 1, "format": field(words[1], 20, 9), "type": field(words[3], 28, 4)}


# -------------------------------------------------------------------------------- samplers
def sampler_words(sampler, border_table: list) -> list[int]:
    """S# of an ``shc.Sampler`` (or a ``(filter, address[, border[, comparison]])`` tuple);
    its border color is appended to ``border_table``."""
    if isinstance(sampler, np.ndarray) and sampler.ndim == 0:
        sampler = sampler.item()
    if hasattr(sampler, "filter"):
        linear, mode = sampler.filter == "linear", ADDRESS_MODES[sampler.address]
        border, comparison = tuple(sampler.border), sampler.comparison
    else:
        linear, mode = int(sampler[0]) == 1, int(sampler[1])
        border = tuple(sampler[2]) if len(sampler) > 2 else (0.0, 0.0, 0.0, 0.0)
        comparison = sampler[3] if len(sampler) > 3 else "less_equal"
    clamp = _CLAMP[mode]
    border_table.append(border)
    filters = (1 << 20 | 1 << 22 | 2 << 26) if linear else (1 << 26)
    return [clamp | clamp << 3 | clamp << 6 | COMPARISONS.index(comparison) << 12, 0, filters,
            (len(border_table) - 1) & 0xFFF | 3 << 30]


def sampler_state(words, border_table: list) -> dict:
    """What an S# says: linear filtering, the address mode (the runtime's numbering), the
    comparison's number and the border color."""
    clamp = field(words[0], 0, 3)
    if clamp not in _CLAMP_BACK:
        raise ValueError(f"sampler clamp mode {clamp} is not one the runtime sets")
    return {"linear": field(words[2], 20, 2) == 1, "mode": _CLAMP_BACK[clamp],
            "comparison": field(words[0], 12, 3), "border": border_table[field(words[3], 0, 12)]}


def words(machine, number: int, element: int) -> list[int]:
    """The descriptor of binding ``number``'s element ``element``, from what the machine has bound
    (an unbound resource: a descriptor of nothing, whose accesses read 0)."""
    binding = machine.bindings[number]
    given = machine.buffers.get(binding.name)
    if binding.count != 1 and isinstance(given, list):
        given = given[element] if element < len(given) else None
    if binding.kind in T.SAMPLER_KINDS:
        return sampler_words(given if given is not None else (0, 0), machine.border_colors)
    if binding.kind in T.RESOURCE_KINDS and T.RESOURCE_KINDS[binding.kind][2]:
        levels = given if isinstance(given, list) else [given]
        if any(not isinstance(level, np.ndarray) for level in levels):
            return [address_of(number, element) >> 8 & 0xFFFFFFFF] + [0] * 7
        return image_words(binding, number, element, levels)
    if given is None:
        given = bytes(machine.cbuffers.get(binding.name, b""))
    return buffer_words(binding, number, element, given)
