"""Selection of image instructions: loads, stores, sampling and size queries.

Addresses go in VGPRs; when they are not one consecutive tuple the gfx10 NSA form lists
them (``image_load v[0:3], [v4, v7, v2], s[8:15] ...``), as LLVM does, so no copies are
needed. ``dmask`` selects the components (a ``float4`` is ``0xf``), ``dim:`` the
resource shape; loads and stores through a UAV descriptor carry ``unorm``. A
``SampleLevel`` at level 0 is ``image_sample_lz``, otherwise ``image_sample_l``
(``SampleCmpLevelZero``: ``image_sample_c_lz``, the reference first in the address). A
``Gather<Channel>`` is ``image_gather4_lz`` (mip 0) whose dmask names the one channel
gathered (1 red, 2 green, 4 blue, 8 alpha), four dwords back; with an offset, ``_o``.
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from ...ir.core import Binding, Inst
from .isel_tables import IMAGE_DIM, RESINFO_FIELDS
from .isel_values import components, element
from .machine import Imm, MInst, SubReg, VReg


class NsaInst(MInst):
    """An image instruction whose address VGPRs are not consecutive (gfx10 NSA): ``[v1, v4, v2]``."""

    nsa_start: int = 0
    nsa_count: int = 0

    def format(self) -> str:
        operands = [op.format() for op in self.defs]
        uses = [op.format() for op in self.uses]
        start, count = self.nsa_start, self.nsa_count
        uses[start:start + count] = ["[" + ", ".join(uses[start:start + count]) + "]"]
        text = f"{self.mnemonic} {', '.join(operands + uses)}"
        return text + (" " + self.modifiers if self.modifiers else "")



def is_texture(binding: Binding) -> bool:
    return binding.kind in T.RESOURCE_KINDS and T.RESOURCE_KINDS[binding.kind][2]


class ImageSelection:
    """Mixin for ``Selector``: the image handlers named in ``Selector.HANDLERS``."""

    def image_address(self, parts: list) -> tuple[list, bool]:
        """Address VGPRs, and whether they need the NSA form (not one consecutive tuple)."""
        regs = [self.to_vgpr(part) for part in parts]
        if len(regs) == 1:
            return regs, False
        first = regs[0]
        contiguous = isinstance(first, SubReg) and all(
            isinstance(r, SubReg) and r.base is first.base and r.index == first.index + k and r.count == 1
            for k, r in enumerate(regs))
        if contiguous:
            whole = first.base if first.index == 0 and len(regs) == first.base.size else \
                SubReg(first.base, first.index, len(regs))
            return [whole], False
        return regs, True

    def image(self, mnemonic: str, defs: list, address: list, rest: list, modifiers: str, data: list = ()):
        regs, nsa = self.image_address(address)
        uses = [*data, *regs, *rest]
        if nsa:
            inst = NsaInst(mnemonic, list(defs), uses, modifiers, self.coord)
            inst.nsa_start, inst.nsa_count = len(data), len(regs)
            return self.append(inst)
        return self.emit(mnemonic, defs, uses, modifiers)

    def image_result(self, inst: Inst) -> tuple[VReg, int, str]:
        count = components(inst.type)
        d16 = element(inst.type).bits == 16
        dwords = (count + 1) // 2 if d16 else count
        return self.fresh_tuple(dwords, self.name(inst)), (1 << count) - 1, " d16" if d16 else ""

    def select_texture_load(self, inst: Inst) -> None:
        binding = self.binding_of(inst)
        array_index, (coordinate,) = self.split_index(inst, binding)
        descriptor = self.descriptor(binding, array_index)
        coords = self.comps(coordinate)
        mnemonic = "image_load"
        if not T.RESOURCE_KINDS[binding.kind][0]:  # read-only: the mip level is the last coordinate
            mip = coords.pop()
            if not (isinstance(mip, Imm) and mip.value == 0):
                coords.append(mip)
                mnemonic = "image_load_mip"
        reg, dmask, d16 = self.image_result(inst)
        self.image(mnemonic, [reg], coords, [descriptor],
                   f"dmask:0x{dmask:x} dim:{IMAGE_DIM[binding.kind]} unorm{d16}{self.coherent(binding)}")
        self.define(inst, self.tuple_parts(reg, reg.size), "v", d16 != "")

    def image_atomic(self, inst: Inst, binding: Binding, mnemonic: str, data, coordinate: Inst, descriptor) -> None:
        """``image_atomic_<fn>`` on the texel at ``coordinate``: ``data`` holds the value (and
        the compare value after it); a returning atomic writes the old texel over it (``glc``)."""
        dmask = (1 << data.size) - 1
        returning = bool(self.users.get(inst))
        cache = (" glc" if returning or binding.globally_coherent else "") + (" dlc" if binding.globally_coherent else "")
        modifiers = f"dmask:0x{dmask:x} dim:{IMAGE_DIM[binding.kind]} unorm{cache}"
        if returning:
            self.image(mnemonic, [data], self.comps(coordinate), [descriptor], modifiers)
        else:
            self.image(mnemonic, [], self.comps(coordinate), [descriptor], modifiers, [data])

    def select_texture_store(self, inst: Inst) -> None:
        binding = self.binding_of(inst)
        array_index, (coordinate, value) = self.split_index(inst, binding)
        descriptor = self.descriptor(binding, array_index)
        d16 = " d16" if element(value.type).bits == 16 else ""
        data = self.tuple_of(self.stored_words(value), self.name(value))
        dmask = (1 << components(value.type)) - 1
        self.image("image_store", [], self.comps(coordinate), [descriptor],
                   f"dmask:0x{dmask:x} dim:{IMAGE_DIM[binding.kind]} unorm{d16}{self.coherent(binding)}", [data])

    def sampler_operands(self, inst: Inst) -> tuple:
        """(binding, texture descriptor, sampler descriptor, the other operands) of a sample or gather."""
        binding = self.binding_of(inst)
        sampler = self.binding_by_name[inst.attrs["sampler"]]
        operands = list(inst.operands)
        texture_index = operands.pop(0) if binding.count != 1 else None
        sampler_index = operands.pop(0) if sampler.count != 1 else None
        return binding, self.descriptor(binding, texture_index), self.descriptor(sampler, sampler_index), operands

    @staticmethod
    def with_offset(inst: Inst, mnemonic: str, address: list) -> str:
        """An immediate texel offset goes first in the address (6 bits per axis): the ``_o`` form."""
        offset = inst.attrs.get("offset")
        if not offset:
            return mnemonic
        packed = sum((int(v) & 0x3F) << (8 * k) for k, v in enumerate(offset))
        address.insert(0, Imm(packed))
        return mnemonic + "_o"

    def cube_address(self, binding, address: list) -> list:
        """A cube's direction (and, in an array, its slice) as the image unit takes it: the
        shader projects it first, as RDNA drivers do: the face's coordinates divided by the
        major axis plus 1.5 (so in [1, 2]) and the face id, plus 8 x the rounded slice."""
        direction = address[:3]
        ma, sc, tc, face = (self.vreg("v") for _ in range(4))
        for mnemonic, target in (("v_cubema_f32", ma), ("v_cubesc_f32", sc), ("v_cubetc_f32", tc),
                                 ("v_cubeid_f32", face)):
            self.valu(mnemonic, [target], direction)
        inverse = self.vreg("v")
        self.valu("v_rcp_f32", [inverse], [ma]).source_modifiers = {0: frozenset({"abs"})}
        projected = []
        for coordinate in (sc, tc):
            target = self.vreg("v")
            self.valu("v_fma_f32", [target], [coordinate, inverse, Imm(1.5)])
            projected.append(target)
        if binding.kind == "TextureCubeArray":
            layer, slice_face = self.vreg("v"), self.vreg("v")
            self.valu("v_rndne_f32", [layer], [address[3]])
            self.valu("v_fma_f32", [slice_face], [layer, Imm(8.0), face])
            face = slice_face
        return projected + [face]

    def select_texture_sample(self, inst: Inst) -> None:
        binding, descriptor, sampler_descriptor, (uv, lod, *compare) = self.sampler_operands(inst)
        address = self.comps(uv)
        if binding.kind in T.CUBE_KINDS:
            address = self.cube_address(binding, address)
        lod_part = self.component(lod, 0)
        mnemonic = "image_sample_lz"
        if not (isinstance(lod_part, Imm) and lod_part.value == 0):
            mnemonic = "image_sample_l"
            address.append(lod_part)
        if compare:  # SampleCmpLevelZero: the reference before the coordinates, the _c form
            address.insert(0, self.component(compare[0], 0))
            mnemonic = mnemonic.replace("image_sample", "image_sample_c")
        mnemonic = self.with_offset(inst, mnemonic, address)
        reg, dmask, d16 = self.image_result(inst)
        self.image(mnemonic, [reg], address, [descriptor, sampler_descriptor],
                   f"dmask:0x{dmask:x} dim:{IMAGE_DIM[binding.kind]}{d16}")
        self.define(inst, self.tuple_parts(reg, reg.size), "v", d16 != "")

    def select_texture_gather(self, inst: Inst) -> None:
        binding, descriptor, sampler_descriptor, (uv, *compare) = self.sampler_operands(inst)
        address = self.comps(uv)
        if compare:  # GatherCmp*: the reference before the coordinates
            address.insert(0, self.component(compare[0], 0))
        mnemonic = self.with_offset(inst, "image_gather4_c_lz" if compare else "image_gather4_lz", address)
        reg, _, d16 = self.image_result(inst)
        self.image(mnemonic, [reg], address, [descriptor, sampler_descriptor],
                   f"dmask:0x{1 << int(inst.attrs['channel']):x} dim:{IMAGE_DIM[binding.kind]}{d16}")
        self.define(inst, self.tuple_parts(reg, reg.size), "v", d16 != "")

    def select_resource_info(self, inst: Inst) -> None:
        binding = self.binding_of(inst)
        operands = list(inst.operands)
        array_index = operands.pop(0) if binding.count != 1 else None
        descriptor = self.descriptor(binding, array_index)
        fields = inst.attrs["fields"]
        key = (binding.name, id(self.block), tuple(id(op) for op in inst.operands))
        cached = self.resinfo_cache.get(key) if is_texture(binding) else None
        if cached is not None and not self.fresh_block:
            self.define(inst, cached.parts, cached.bank)
            return
        if not is_texture(binding):
            parts = []
            for name in fields:
                if name in ("count", "bytes"):
                    parts.append(descriptor.part(2))
                else:
                    stride = self.vreg("s")
                    self.salu("s_bfe_u32", [stride], [descriptor.part(1), Imm(0xE0010)])
                    parts.append(stride)
            value = self.define(inst, parts, "s")
            if self.bank(inst) == "v":
                self.define(inst, [self.to_vgpr(p) for p in parts], "v")
            return
        dmask = 0
        for name in fields:
            dmask |= 1 << RESINFO_FIELDS[name]
        order = sorted(RESINFO_FIELDS[name] for name in fields)
        reg = self.fresh_tuple(len(order), self.name(inst))
        mip = self.component(operands[0], 0) if operands else Imm(0)
        self.image("image_get_resinfo", [reg], [mip], [descriptor],
                   f"dmask:0x{dmask:x} dim:{IMAGE_DIM[binding.kind]} unorm")
        regs = self.tuple_parts(reg, len(order))
        value = self.define(inst, [regs[order.index(RESINFO_FIELDS[name])] for name in fields], "v")
        self.resinfo_cache[key] = value

