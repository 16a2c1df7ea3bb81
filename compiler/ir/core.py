"""The IR's data structures: modules, functions, blocks, instructions.

An instruction is its own SSA value. Blocks hold instructions and end in one
terminator. Structure is explicit, as in SPIR-V: a block that starts a
selection names its ``merge`` block; a loop header names its ``merge`` and
``cont`` (continue) blocks. Every instruction carries the source ``Coord`` it
came from, so the register report can name source lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Iterator

from ..diagnostics import UNKNOWN, Coord
from ..frontend import hlsl_types as T
from .ops import TERMINATORS, Op


class Inst:
    """One operation and the value it defines (``type`` VOID when it defines none)."""

    __slots__ = ("op", "operands", "type", "attrs", "coord", "block", "targets")

    def __init__(self, op: Op, operands: list[Inst], type: T.Type, attrs: dict[str, Any] | None = None,
                 coord: Coord = UNKNOWN, targets: list[Block] | None = None):
        self.op = op
        self.operands = list(operands)
        self.type = type
        self.attrs = dict(attrs or {})
        self.coord = coord
        self.block: Block | None = None
        self.targets: list[Block] = list(targets or [])  # branch targets; phi incoming blocks

    def __repr__(self) -> str:
        return f"<{self.op.value} {self.type}>"

    @property
    def is_terminator(self) -> bool:
        return self.op in TERMINATORS

    def replace_operand(self, old: Inst, new: Inst) -> None:
        self.operands = [new if operand is old else operand for operand in self.operands]


@dataclass(eq=False)
class Block:
    name: str
    insts: list[Inst] = field(default_factory=list)
    # Structured control flow (SPIR-V style): set on selection and loop headers.
    kind: str | None = None  # "if", "switch" or "loop"
    merge: Block | None = None
    cont: Block | None = None

    def __repr__(self) -> str:
        return f"^{self.name}"

    def append(self, inst: Inst) -> Inst:
        inst.block = self
        self.insts.append(inst)
        return inst

    def insert(self, index: int, inst: Inst) -> Inst:
        inst.block = self
        self.insts.insert(index, inst)
        return inst

    @property
    def terminator(self) -> Inst | None:
        return self.insts[-1] if self.insts and self.insts[-1].is_terminator else None

    @property
    def successors(self) -> list[Block]:
        term = self.terminator
        return list(term.targets) if term is not None else []

    @property
    def phis(self) -> list[Inst]:
        return [inst for inst in self.insts if inst.op is Op.PHI]


@dataclass
class Binding:
    """A resource the kernel uses: what runtime and listing headers report."""

    name: str
    kind: str  # e.g. "RWStructuredBuffer", "Texture2DArray", "SamplerState", "cbuffer"
    element: T.Type | None
    register: str  # "u3", "t0", "s0", "b0"
    space: int = 0
    count: int | None = 1  # array size; None for unbounded
    globally_coherent: bool = False


@dataclass(eq=False)  # one of a kind: compared by identity
class Function:
    """A kernel's function: its blocks, its thread-group shape and its wave size."""

    name: str
    blocks: list[Block] = field(default_factory=list)
    numthreads: tuple[int, int, int] = (1, 1, 1)
    wave_size: int = 32
    coord: Coord = UNKNOWN

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    def instructions(self) -> Iterator[Inst]:
        return chain.from_iterable(block.insts for block in self.blocks)  # (asked for by every pass, often)

    def predecessors(self) -> dict[Block, list[Block]]:
        preds: dict[Block, list[Block]] = {block: [] for block in self.blocks}
        for block in self.blocks:
            for successor in block.successors:
                preds.setdefault(successor, []).append(block)
        return preds

    def users(self) -> dict[Inst, list[Inst]]:
        uses: dict[Inst, list[Inst]] = {}
        for inst in self.instructions():
            for operand in inst.operands:
                uses.setdefault(operand, []).append(inst)
        return uses


@dataclass
class GroupsharedVar:
    name: str
    type: T.Type
    offset: int  # byte offset in the group's LDS
    size: int


@dataclass(eq=False)  # one of a kind: compared by identity
class Module:
    """One compiled kernel: its entry function and the resources it binds."""

    function: Function
    bindings: list[Binding] = field(default_factory=list)
    groupshared: list[GroupsharedVar] = field(default_factory=list)
    scratch_bytes: int = 0
    source_file: str = "<input>"
    # Results of analysis passes, by pass name (e.g. "uniformity", "liveness").
    analyses: dict[str, Any] = field(default_factory=dict)
    # The source variable each value was first assigned to, for reports (values that passes
    # replace simply drop out; temporaries have no entry).
    value_names: dict[Inst, str] = field(default_factory=dict)
    # The source expression each temporary computed (``a * b``, ``tex.SampleLevel(...)``), for reports.
    value_exprs: dict[Inst, str] = field(default_factory=dict)

    @property
    def lds_bytes(self) -> int:
        return sum(var.size for var in self.groupshared)
