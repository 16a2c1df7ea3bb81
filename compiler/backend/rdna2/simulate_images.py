"""The listing simulator's image instructions: ``image_load[_mip]``, ``image_store``,
``image_get_resinfo`` and ``image_sample[_c][_l|_lz][_o]``, in every format the runtime binds.

A texture is bound as the caller gives it to the runtime (``runtime/textures.py``): a NumPy
array per mip level (a list of them, or one array for mip 0 alone; a resource array is a list
of those), the channel axis last or left out for one channel, the dtype its format. What an
instruction reads of a texture comes from its T# (``simulate_descriptors.py``): the base
address names the array, the format says how texels convert, width, height, depth and
last_level bound the addresses. A texel converts to four 32-bit channels as the runtime
converts it for the host JIT (``machine/texels.py``: UNORM as ``value / 255`` in float32,
float16 widened, missing channels 0, 0, 0, 1); a store converts back (UNORM clamped and
rounded, narrow integers saturated) and writes the channels dmask names, as the JIT does.

Results go one dword per dmask channel, in order (``d16``: two channels per dword, float
channels rounded to half to nearest even, integer ones their low 16 bits; stored ``d16`` data
widens back, 16-bit integers by the sign of the texture's numbers). An address outside
the level (or a mip past the last) reads 0 and is not written.

``image_sample*`` is SampleLevel as the host JIT filters (``machine/sampling.py``), with the
sampler's S#: point or linear, clamp, wrap, mirror or border (its border color from the
table), a comparison for the ``_c`` forms. The address VGPRs are [offset,] [reference,] the
coordinates (u[, v][, w or slice]) and, for ``_l``, the level of detail. Cube textures are
refused with a ``SimulationError``.
"""

from __future__ import annotations

import re

import numpy as np

from ...machine.sampling import array_slice, sample
from ...machine.texels import channel_bits, decode, encode
from . import simulate_atomics as atomics
from . import simulate_descriptors as descriptors

_RESINFO = ("width", "height", "depth", "mips")
_CUBE_TYPE = 11


def _error(message: str):
    from .simulate import SimulationError  # simulate.py imports this module

    return SimulationError(message)


class Image:
    """One texture as a T# describes it, over the caller's arrays."""

    def __init__(self, machine, first: int):
        self.words = [int(machine.s[first + k]) & 0xFFFFFFFF for k in range(8)]
        self.binding, element = descriptors.resource(machine, first, image=True)
        resource = machine.buffers[self.binding.name]
        if self.binding.count != 1:
            resource = resource[element]
        self.arrays = resource if isinstance(resource, list) else [resource]
        if not self.arrays or any(not isinstance(level, np.ndarray) for level in self.arrays):
            raise _error(f"texture '{self.binding.name}' (element {element}) is not bound: "
                         "accesses through an unbound descriptor are not simulated")
        self.sizes = descriptors.image_sizes(self.words)
        bits, self.channels, self.kind = channel_bits(self.sizes["format"])
        self.integer = self.kind in ("uint", "sint")
        self.texel_type = np.dtype(np.float32 if not self.integer else np.int32 if self.kind == "sint" else np.uint32)
        self.scale = float((1 << bits) - 1) if self.kind == "unorm" else None
        self.is_array = self.sizes["type"] in (12, 13)
        if self.sizes["type"] == _CUBE_TYPE:
            raise _error(f"cube textures ('{self.binding.name}') are not simulated")

    def level(self, mip: int) -> np.ndarray | None:
        """Mip ``mip`` as a (depth, height, width, channels) view of the caller's array."""
        if not 0 <= mip < min(self.sizes["mips"], len(self.arrays)):
            return None
        depth, height, width, channels = descriptors.shape3(self.binding.kind, self.arrays[mip])
        return self.arrays[mip].reshape(depth, height, width, channels)

    def decoded(self, mip: int) -> np.ndarray:
        """Mip ``mip``'s texels as (depth, height, width, 4) 32-bit channels."""
        level = self.level(mip)
        depth, height, width, channels = level.shape
        texels = decode(level.reshape(-1, channels), self.texel_type, self.scale)
        return texels.reshape(depth, height, width, 4)

    def texel_key(self, address: list, lane: int) -> tuple[int, int, int]:
        """(z or slice, y, x) of a load or store address: x[, y][, slice or z]."""
        coords = [int(np.int32(np.uint32(part[lane]))) for part in address]
        dims = {8: 1, 9: 2, 10: 3, 12: 2, 13: 3}[self.sizes["type"]]
        coords = coords[:dims] + [0] * (dims - len(coords[:dims]))
        if self.sizes["type"] == 12:  # 1-D array: x, slice
            return coords[1], 0, coords[0]
        return (coords[2] if dims == 3 else 0), (coords[1] if dims >= 2 else 0), coords[0]


def _address(machine, inst, first: int, last: int) -> list:
    address = []
    for op in inst.uses[first:last]:
        _, start, count = machine.regs(op)
        address.extend(machine.v[start + k] for k in range(count))
    return address


def _dmask(inst) -> int:
    return int(re.search(r"dmask:0x([0-9a-f]+)", inst.modifiers).group(1), 16)


def _put(machine, inst, lane: int, channels: list, integer: bool) -> None:
    """The dmask's channels of a texel (32-bit words) into the result VGPRs of one lane."""
    words = [channels[k] for k in range(4) if _dmask(inst) >> k & 1]
    first = machine.regs(inst.defs[0])[1]
    if " d16" in inst.modifiers:
        with np.errstate(over="ignore"):  # past half's range: infinity, as the JIT's fptrunc
            halves = [int(word) & 0xFFFF if integer else
                      int(np.uint32(word).view(np.float32).astype(np.float16).view(np.uint16)) for word in words]
        halves += [0] * (len(halves) % 2)
        words = [halves[k] | halves[k + 1] << 16 for k in range(0, len(halves), 2)]
    for k, word in enumerate(words):
        machine.v[first + k][lane] = int(word) & 0xFFFFFFFF


def access(machine, inst) -> None:
    """``image_load``, ``image_load_mip``, ``image_store``, ``image_get_resinfo``, ``image_atomic_*``."""
    name = inst.mnemonic
    store = name == "image_store" or (name.startswith("image_atomic_") and not inst.defs)
    position = next(k for k, op in enumerate(inst.uses) if getattr(op, "cls", "v") == "s")
    image = Image(machine, machine.regs(inst.uses[position])[1])
    address = _address(machine, inst, 1 if store else 0, position)
    if name == "image_get_resinfo":
        return _resinfo(machine, inst, image, address[0])
    if name.startswith("image_atomic_"):
        return atomics.image_atomic(machine, inst, image.arrays[0], address)
    mips = address[-1] if name == "image_load_mip" else np.zeros(machine.wave, np.uint32)
    for lane in np.flatnonzero(machine.exec):
        level = image.level(int(mips[lane]))
        z, y, x = image.texel_key(address, lane)
        inside = level is not None and 0 <= z < level.shape[0] and 0 <= y < level.shape[1] and \
            0 <= x < level.shape[2]
        if store and inside:
            _store(machine, inst, image, level, (z, y, x), lane)
        elif not store:
            texel = decode(level[z, y, x][None, :], image.texel_type, image.scale)[0] if inside else \
                np.zeros(4, image.texel_type)
            _put(machine, inst, lane, list(texel.view(np.uint32)), image.integer)


def _store(machine, inst, image: Image, level: np.ndarray, key: tuple, lane: int) -> None:
    """The dmask's channels of the data VGPRs into one texel, converted to the texture's format."""
    texel = decode(level[key][None, :], image.texel_type, image.scale)[0].view(np.uint32).copy()
    first = machine.regs(inst.uses[0])[1]
    values = [int(machine.v[first + k][lane]) for k in range(machine.regs(inst.uses[0])[2])]
    if " d16" in inst.modifiers:
        halves = [(word >> shift) & 0xFFFF for word in values for shift in (0, 16)]
        signed = image.kind == "sint"  # 16-bit integers widen as the texture's numbers do
        values = [(half - (half >> 15 << 16) if signed else half) & 0xFFFFFFFF if image.integer else
                  int(np.uint16(half).view(np.float16).astype(np.float32).view(np.uint32)) for half in halves]
    channels = [k for k in range(4) if _dmask(inst) >> k & 1]
    for k, channel in enumerate(channels):
        texel[channel] = values[k]
    stored = encode(texel.view(image.texel_type)[None, :level.shape[3]], level.dtype, image.scale)
    level[key] = stored[0]


def _resinfo(machine, inst, image: Image, mips: np.ndarray) -> None:
    """Width, height, depth (3-D: the mip's; arrays: slices) and the mip count, at each lane's mip;
    0 for a mip past the last."""
    sizes = image.sizes
    dims = {8: 1, 9: 2, 10: 3, 12: 1, 13: 2}[sizes["type"]]
    for lane in np.flatnonzero(machine.exec):
        mip = int(mips[lane])
        if mip >= sizes["mips"]:
            fields = [0, 0, 0, 0]
        else:
            width = max(1, sizes["width"] >> mip)
            height = max(1, sizes["height"] >> mip) if dims >= 2 else sizes["depth"]
            depth = max(1, sizes["depth"] >> mip) if dims == 3 else sizes["depth"]
            fields = [width, height, depth, sizes["mips"]]
        _put(machine, inst, lane, [np.uint32(value) for value in fields], True)


def sample_instruction(machine, inst) -> None:
    """``image_sample[_c][_l|_lz][_o]``: SampleLevel with the sampler's S#."""
    name = inst.mnemonic
    position = next(k for k, op in enumerate(inst.uses) if getattr(op, "cls", "v") == "s")
    image = Image(machine, machine.regs(inst.uses[position])[1])
    sampler_first = machine.regs(inst.uses[position + 1])[1]
    state = descriptors.sampler_state([int(machine.s[sampler_first + k]) & 0xFFFFFFFF for k in range(4)],
                                      machine.border_colors)
    address = [np.asarray(part, np.uint32) for part in _address(machine, inst, 0, position)]
    packed = address.pop(0) if name.endswith("_o") else None
    reference = address.pop(0).view(np.float32) if "_c" in name.removeprefix("image_sample") else None
    lods = address.pop().view(np.float32) if "_l" in name and not name.endswith(("_lz", "_lz_o")) else None
    axes = {8: 1, 9: 2, 10: 3, 12: 1, 13: 2}[image.sizes["type"]]
    if len(address) != axes + image.is_array:
        raise _error(f"'{inst.format()}': {len(address)} coordinates for a {axes}-axis texture")
    levels = [image.decoded(mip) for mip in range(min(image.sizes["mips"], len(image.arrays)))]
    width = _dmask(inst).bit_count()
    comparison = state["comparison"] if reference is not None else None
    for lane in np.flatnonzero(machine.exec):
        coords = [np.uint32(address[k][lane]).view(np.float32) for k in range(axes)]
        layer = array_slice(image.sizes["depth"], np.uint32(address[axes][lane]).view(np.float32)) \
            if image.is_array else 0
        offsets = (0, 0, 0)
        if packed is not None:
            word = int(packed[lane])
            offsets = tuple(_signed6(word >> (8 * k) & 0x3F) for k in range(3))
        lod = lods[lane] if lods is not None else np.float32(0.0)
        compare = None if comparison is None else (reference[lane], comparison)
        values = sample(levels, coords, lod, state["linear"], state["mode"], state["border"], width, offsets,
                        layer, compare)
        channels = [np.float32(value).view(np.uint32) for value in values] + [np.uint32(0)] * (4 - len(values))
        _put(machine, inst, lane, channels, False)


def _signed6(bits: int) -> int:
    return bits - 64 if bits & 0x20 else bits
