"""Machine IR: RDNA2 instructions over virtual registers, before and after allocation.

A ``VReg`` is a virtual register of one class (``v`` for VGPRs, ``s`` for SGPRs)
spanning ``size`` consecutive 32-bit registers (a float4 is a 4-wide tuple,
printed ``v[4:7]`` once allocated). Special registers (``exec_lo``, ``vcc``,
``scc``, ``m0``) are ``Special`` operands. Constants are ``Imm``. A ``MInst`` is a
mnemonic with destinations, sources and a modifier string, plus the source
``Coord`` of the IR instruction it came from.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ...diagnostics import UNKNOWN, Coord


@dataclass(eq=False)
class VReg:
    cls: str  # "v" or "s"
    size: int = 1
    name: str = ""  # the IR value it holds, for comments and the register report
    phys: int | None = None  # first physical register after allocation

    def __repr__(self) -> str:
        return self.format()

    def format(self) -> str:
        if self.phys is None:
            return f"%{self.cls}{id(self) % 10000}" + (f"x{self.size}" if self.size > 1 else "")
        if self.size == 1:
            return f"{self.cls}{self.phys}"
        return f"{self.cls}[{self.phys}:{self.phys + self.size - 1}]"

    def part(self, index: int, count: int = 1) -> SubReg:
        return SubReg(self, index, count)


@dataclass(eq=False)
class SubReg:
    """``count`` registers of a tuple starting at ``index`` (one component of a float4)."""

    base: VReg
    index: int
    count: int = 1

    @property
    def cls(self) -> str:
        return self.base.cls

    def format(self) -> str:
        if self.base.phys is None:
            return f"{self.base.format()}.{self.index}"
        first = self.base.phys + self.index
        if self.count == 1:
            return f"{self.base.cls}{first}"
        return f"{self.base.cls}[{first}:{first + self.count - 1}]"


@dataclass(frozen=True)
class Special:
    name: str  # exec_lo, exec, vcc_lo, vcc, scc, m0, off

    def format(self) -> str:
        return self.name


# Float constants RDNA2 encodes inline in an instruction; others need a 32-bit literal.
INLINE_FLOATS = frozenset({0.0, 0.5, 1.0, 2.0, 4.0, -0.5, -1.0, -2.0, -4.0})


@dataclass(frozen=True)
class Imm:
    value: int | float

    def format(self) -> str:
        value = self.value
        if isinstance(value, float):
            if value in INLINE_FLOATS:
                return repr(value)
            import struct

            return "0x%08x" % struct.unpack("<I", struct.pack("<f", value))[0]
        if -16 <= value <= 64:
            return str(value)
        return "0x%x" % (value & 0xFFFFFFFF)


@dataclass(frozen=True)
class Label:
    name: str

    def format(self) -> str:
        return self.name


Operand = VReg | SubReg | Special | Imm | Label


# ``implicit_def %v[0:3]`` marks where a tuple built part by part starts; it is not an
# instruction: it reads and writes nothing, is not printed or counted, and waits for nothing.
IMPLICIT_DEF = "implicit_def"


@dataclass(eq=False)
class MInst:
    mnemonic: str
    defs: list[Operand] = field(default_factory=list)
    uses: list[Operand] = field(default_factory=list)
    modifiers: str = ""
    coord: Coord = UNKNOWN
    comment: str = ""
    # VOP3 source modifiers by source index: {"neg"}, {"abs"} or both (``-|v[2:3]|``)
    source_modifiers: dict[int, frozenset[str]] = field(default_factory=dict)

    def format(self) -> str:
        uses = [_modified(op.format(), self.source_modifiers.get(index, frozenset()))
                for index, op in enumerate(self.uses)]
        operands = ", ".join([*(op.format() for op in self.defs), *uses])
        text = f"{self.mnemonic} {operands}".rstrip()
        if self.modifiers:
            text += " " + self.modifiers
        return text

    @property
    def is_marker(self) -> bool:
        return self.mnemonic == IMPLICIT_DEF

    def registers(self, which: str = "both") -> list[VReg]:
        if which == "defs":
            chosen = self.defs
        elif which == "uses":
            chosen = self.uses
        else:
            chosen = [*self.defs, *self.uses]
        found = []
        for operand in chosen:
            if isinstance(operand, VReg):
                found.append(operand)
            elif isinstance(operand, SubReg):
                found.append(operand.base)
        return found


def renamed(operand, names: dict[VReg, VReg]):
    """``operand`` with its virtual register replaced as ``names`` says (a part of a tuple
    stays the same part of the new tuple); any other operand unchanged."""
    if isinstance(operand, VReg) and operand in names:
        return names[operand]
    if isinstance(operand, SubReg) and operand.base in names:
        return SubReg(names[operand.base], operand.index, operand.count)
    return operand


def _modified(text: str, modifiers: frozenset[str]) -> str:
    if "abs" in modifiers:
        text = f"|{text}|"
    return f"-{text}" if "neg" in modifiers else text


@dataclass(eq=False)
class MBlock:
    label: str
    insts: list[MInst] = field(default_factory=list)
    comment: str = ""

    @property
    def may_branch(self) -> bool:
        return any(inst.mnemonic.startswith(("s_branch", "s_cbranch", "s_endpgm", "s_setpc")) for inst in self.insts)

    def emit(self, mnemonic: str, defs=(), uses=(), modifiers: str = "", coord: Coord = UNKNOWN,
             comment: str = "") -> MInst:
        inst = MInst(mnemonic, list(defs), list(uses), modifiers, coord, comment)
        self.insts.append(inst)
        return inst


@dataclass(eq=False)  # one of a kind: compared by identity
class MFunction:
    """A function in RDNA2 instructions: its machine blocks in order."""

    name: str
    blocks: list[MBlock] = field(default_factory=list)
    wave_size: int = 32

    def instructions(self):
        for block in self.blocks:
            yield from block.insts

    @property
    def exec_reg(self) -> Special:
        return Special("exec_lo" if self.wave_size == 32 else "exec")

    @property
    def vcc(self) -> Special:
        return Special("vcc_lo" if self.wave_size == 32 else "vcc")

    @property
    def mask_suffix(self) -> str:
        return "b32" if self.wave_size == 32 else "b64"

    def copy(self, registers: dict[VReg, VReg] | None = None) -> MFunction:
        """A copy with its own blocks, instructions and virtual registers (allocation writes
        ``phys`` into registers), so the back end can go on twice from one point. ``registers``,
        when given, receives each register of this function with its copy's."""
        registers = {} if registers is None else registers

        def own(operand):
            if isinstance(operand, VReg):
                if operand not in registers:
                    registers[operand] = copy.copy(operand)
                return registers[operand]
            if isinstance(operand, SubReg):
                return SubReg(own(operand.base), operand.index, operand.count)
            return operand  # Special, Imm and Label are immutable

        blocks = []
        for block in self.blocks:
            insts = []
            for inst in block.insts:
                twin = copy.copy(inst)  # with any attribute selection added (an image's NSA layout)
                twin.defs = [own(operand) for operand in inst.defs]
                twin.uses = [own(operand) for operand in inst.uses]
                twin.source_modifiers = dict(inst.source_modifiers)
                insts.append(twin)
            twin_block = copy.copy(block)
            twin_block.insts = insts
            blocks.append(twin_block)
        twin_function = copy.copy(self)
        twin_function.blocks = blocks
        return twin_function
