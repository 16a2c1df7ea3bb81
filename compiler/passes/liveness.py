"""Liveness and register demand, the ACO way (``aco_live_var_analysis.cpp``).

1. **Live-out sets per block**, iterated to a fixed point over the CFG (loops need
   more than one round). A phi's operand is live-out of the block it comes from,
   not live-in of the phi's block.
2. **A backward walk of each block** from its live-out set: a definition kills its
   value, an operand makes its value live. The register demand at an instruction
   is what it holds while it runs: the values live across it, plus the larger of
   what it reads for the last time and what it writes, per register file (a result
   can reuse a dying operand's register; a dead result still needs one). The peak
   over all instructions is the same as ACO's demand after each instruction; this
   form also charges the instructions that consume the peak's values, so the
   source lines that read them show up too.

Counting rules (each value goes to one register file):

- A **divergent** value (uniformity ``LANE``) lives in VGPRs, one per 32-bit
  component; 64-bit components take two. **16-bit** components pack two to a VGPR
  *within a value* (``half4`` = 2 VGPRs, ``half3`` = 2, a lone ``half`` = 1): that is
  how LLVM allocates them on gfx10 (no true16 registers before gfx11) and how
  ACO counts them; two separate ``half`` values are not packed together.
- A divergent **bool** is a lane mask in SGPRs: 1 SGPR per component in wave32,
  2 in wave64. It takes no VGPR.
- A **uniform** value (``GROUP`` or ``WAVE``) lives in SGPRs, one per component
  (16-bit: one SGPR each, unpacked; 64-bit: two; bool: one) -- when RDNA2's scalar
  unit can produce it. It cannot produce floats (gfx10 has no SALU float ops), the
  results of LDS, texture, scratch and atomic instructions, or loads from typed or
  writable buffers (scalar loads read only read-only structured/byte-address
  buffers and cbuffers): such uniform values take VGPRs as a divergent value
  would. Phis, selects and vector shuffles follow their operands.
- **Constants** are rematerialised where they are used (inline constants or
  literals in the instruction): they are never live.
- **Divergent control flow**: inside each ``if``/``switch`` with a divergent
  condition, and each loop whose exits diverge, the exec mask saved on entry
  (``s_and_saveexec``) stays live: one lane mask per enclosing region, counted in
  the SGPR demand of every instruction inside it.

Registers that are not IR values are kept apart (``fixed_vgprs``/``fixed_sgprs``):

- VGPRs the hardware fills before the first instruction: the thread id in ``v0``
  (and ``v1``/``v2`` for 2-D/3-D groups). The kernel's thread-id values *are* these
  registers, so they are not added to the peak: ``vgprs = max(peak, fixed)``.
- SGPRs held for the whole kernel: a descriptor per bound resource (4 SGPRs per
  buffer, cbuffer or sampler, 8 per texture; one descriptor for a resource array,
  loaded per access), the 2-SGPR pointer to the descriptor table, and ``VCC`` (2).
  These are added: ``sgprs = peak + fixed``. EXEC is a separate register, not an SGPR.

The result is ``module.analyses["liveness"]``, a ``RegisterDemand``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import ceil

from . import Pass
from .uniformity import LANE, Uniformity, UniformityInfo
from ..frontend import hlsl_types as T
from ..ir.core import Binding, Block, Function, Inst, Module
from ..ir.ops import ARITHMETIC, CONVERSIONS, Op
from ..ir.printer import Printer
from ..ir.structure import ConstructRegions


@dataclass(frozen=True)
class Regs:
    vgprs: int = 0
    sgprs: int = 0

    def __add__(self, other: Regs) -> Regs:
        return Regs(self.vgprs + other.vgprs, self.sgprs + other.sgprs)

    def __sub__(self, other: Regs) -> Regs:
        return Regs(self.vgprs - other.vgprs, self.sgprs - other.sgprs)


@dataclass(frozen=True)
class InstDemand:
    """Registers in use while one instruction runs, and the values holding them."""

    vgprs: int
    sgprs: int  # IR values plus saved exec masks
    exec_sgprs: int  # the saved exec masks alone
    live: frozenset[Inst]  # values in registers here: live across, last-read operands, the result


@dataclass(frozen=True)
class HotLine:
    file: str
    line: int
    live_vgprs: int
    values: list[str]  # the VGPR values alive there: source variable names where known, else IR names
    # The calls the worst instruction of the line was inlined through, innermost first (InlineSite)
    chain: tuple = ()


@dataclass(eq=False)  # one of a kind: compared by identity
class RegisterDemand:
    """The registers a function needs: its peaks, where they are, and the demand at each instruction."""

    wave_size: int
    peak_vgprs: int
    peak_sgprs: int
    peak_vgpr_insts: list[Inst]
    peak_sgpr_insts: list[Inst]
    per_inst: dict[Inst, InstDemand]
    value_regs: dict[Inst, Regs]  # the registers each live-able value takes
    live_in: dict[Block, frozenset[Inst]]
    live_out: dict[Block, frozenset[Inst]]
    names: dict[Inst, str]
    source_names: dict[Inst, str] = field(default_factory=dict)
    source_exprs: dict[Inst, str] = field(default_factory=dict)  # temporaries: the expression they hold
    stamp: tuple = ()  # the function this was computed for (``function_stamp``)
    fixed_vgpr_parts: dict[str, int] = field(default_factory=dict)
    fixed_sgpr_parts: dict[str, int] = field(default_factory=dict)
    exec_masks: dict[Block, int] = field(default_factory=dict)  # SGPRs of saved exec masks live in each block

    @property
    def fixed_vgprs(self) -> int:
        return sum(self.fixed_vgpr_parts.values())

    @property
    def fixed_sgprs(self) -> int:
        return sum(self.fixed_sgpr_parts.values())

    @property
    def vgprs(self) -> int:
        """VGPRs the kernel needs: the peak of its values, at least the hardware-filled ids."""
        return max(self.peak_vgprs, self.fixed_vgprs)

    @property
    def sgprs(self) -> int:
        return self.peak_sgprs + self.fixed_sgprs

    def name(self, value: Inst) -> str:
        return self.names.get(value, "%?")

    def source_name(self, value: Inst) -> str:
        """``v (%12)`` for a value a source variable held, ``a * b (%13)`` for a temporary
        holding a source expression, else the IR name."""
        source = self.source_names.get(value) or self.source_exprs.get(value)
        return f"{source} ({self.name(value)})" if source else self.name(value)

    def hot_lines(self, n: int = 5) -> list[HotLine]:
        """The ``n`` source lines with the most live VGPRs, each at its own worst instruction."""
        worst: dict[tuple[str, int], Inst] = {}
        for inst, demand in self.per_inst.items():
            if inst.coord.line <= 0:
                continue
            key = (inst.coord.file, inst.coord.line)
            if key not in worst or demand.vgprs > self.per_inst[worst[key]].vgprs:
                worst[key] = inst
        lines = []
        for (file, line), inst in worst.items():
            demand = self.per_inst[inst]
            values = sorted((v for v in demand.live if self.value_regs[v].vgprs), key=self._order)
            lines.append(HotLine(file, line, demand.vgprs, [self.source_name(v) for v in values],
                                 inst.coord.inlined_at))
        lines.sort(key=lambda hot: (-hot.live_vgprs, hot.file, hot.line))
        return lines[:n]

    def _order(self, value: Inst) -> int:
        name = self.names.get(value, "%0")
        return int(name[1:]) if name[1:].isdigit() else 0


class Liveness(Pass):
    name = "liveness"
    description = "live values and VGPR/SGPR demand at every instruction; peak and hot source lines"

    def run(self, module: Module) -> None:
        """Needs uniformity: reuses ``analyses["uniformity"]`` when it covers every value, else reruns it."""
        function = module.function
        info = fresh_uniformity(module)
        known = module.analyses.get("liveness")
        if known is not None and known.stamp == function_stamp(function):
            return  # computed for exactly this function already (the schedule pass leaves it)
        module.analyses["liveness"] = analyze(module, info)


def fresh_uniformity(module: Module) -> UniformityInfo:
    """``analyses["uniformity"]`` when it covers every value, else a new run of it."""
    info = module.analyses.get("uniformity")
    if info is None or _stale(module.function, info):
        Uniformity().run(module)
        info = module.analyses["uniformity"]
    return info


def function_stamp(function: Function) -> tuple:
    """The identity of every block, instruction, operand and target, in order: equal stamps
    mean an analysis of one is an analysis of the other."""
    return tuple((id(block), tuple((id(inst), tuple(map(id, inst.operands)), tuple(map(id, inst.targets)))
                                   for inst in block.insts))
                 for block in function.blocks)


def _stale(function: Function, info: UniformityInfo) -> bool:
    return any(inst not in info.levels for inst in function.instructions() if _is_value(inst))


def _is_value(inst: Inst) -> bool:
    """Whether ``inst`` defines a value that may occupy registers (constants never do)."""
    return inst.type.__class__ is not T.VoidType and inst.op is not Op.CONST  # (as != T.VOID, without __eq__)


def analyze(module: Module, info: UniformityInfo) -> RegisterDemand:
    function = module.function
    wave = function.wave_size
    banks = _register_banks(module, info)
    value_regs = {value: _size(value.type, bank, info.level(value) == LANE, wave)
                  for value, bank in banks.items()}
    live_out = {block: frozenset(values) for block, values in _live_out_sets(function).items()}
    exec_masks = _exec_masks(function, info, wave)
    per_inst: dict[Inst, InstDemand] = {}
    live_in = {block: _walk_block(block, live_out[block], value_regs, exec_masks.get(block, 0), per_inst)
               for block in function.blocks}
    return _demand(module, per_inst, value_regs, live_in, live_out, exec_masks)


def reanalyze(module: Module, demand: RegisterDemand, blocks: list[Block]) -> RegisterDemand:
    """``analyze`` again after the instructions of ``blocks`` were reordered and nothing else
    changed (the schedule pass): the values, their registers and every block's live-in and
    live-out sets stay as they were, so only ``blocks`` are walked again."""
    per_inst = dict(demand.per_inst)
    for block in blocks:
        _walk_block(block, demand.live_out[block], demand.value_regs, demand.exec_masks.get(block, 0), per_inst)
    return _demand(module, per_inst, demand.value_regs, demand.live_in, demand.live_out, demand.exec_masks)


def _walk_block(block: Block, live_out: frozenset[Inst], value_regs: dict[Inst, Regs], masks: int,
                per_inst: dict[Inst, InstDemand]) -> frozenset[Inst]:
    """Walk ``block`` backwards from its live-out set, recording each instruction's demand in
    ``per_inst``; the block's live-in set. (The counts are plain ints: this runs for every
    instruction, and often: the schedule pass analyses again after each change.)"""
    live = set(live_out)
    vgprs = sum(value_regs[v].vgprs for v in live)  # held across the instruction being visited
    sgprs = sum(value_regs[v].sgprs for v in live)
    nothing = Regs()
    for inst in reversed(block.insts):
        defined = value_regs.get(inst)
        if defined is not None and inst in live:
            live.discard(inst)
            vgprs -= defined.vgprs
            sgprs -= defined.sgprs
        in_use = set(live)
        killed_vgprs = killed_sgprs = 0  # operands read for the last time
        if inst.op is not Op.PHI:  # a phi's operands are live-out of the incoming blocks
            for operand in inst.operands:
                regs = value_regs.get(operand)
                if regs is not None and operand not in live:
                    live.add(operand)
                    in_use.add(operand)
                    killed_vgprs += regs.vgprs
                    killed_sgprs += regs.sgprs
        if defined is not None:
            in_use.add(inst)
        written = defined or nothing
        per_inst[inst] = InstDemand(vgprs + max(written.vgprs, killed_vgprs),
                                    sgprs + max(written.sgprs, killed_sgprs) + masks, masks, frozenset(in_use))
        vgprs += killed_vgprs
        sgprs += killed_sgprs
    return frozenset(live)


def _demand(module: Module, per_inst: dict[Inst, InstDemand], value_regs: dict[Inst, Regs],
            live_in: dict[Block, frozenset[Inst]], live_out: dict[Block, frozenset[Inst]],
            exec_masks: dict[Block, int]) -> RegisterDemand:
    """The ``RegisterDemand`` of the function's instructions as they stand, from their demands."""
    function = module.function
    per_inst = {inst: per_inst[inst] for inst in function.instructions()}  # program order
    peak_v = max((d.vgprs for d in per_inst.values()), default=0)
    peak_s = max((d.sgprs for d in per_inst.values()), default=0)
    return RegisterDemand(
        stamp=function_stamp(function),
        wave_size=function.wave_size,
        peak_vgprs=peak_v,
        peak_sgprs=peak_s,
        peak_vgpr_insts=[inst for inst, d in per_inst.items() if d.vgprs == peak_v],  # in program order
        peak_sgpr_insts=[inst for inst, d in per_inst.items() if d.sgprs == peak_s],
        per_inst=per_inst,
        value_regs=value_regs,
        live_in=live_in,
        live_out=live_out,
        names=dict(Printer(function).names),
        source_names=module.value_names,
        source_exprs=module.value_exprs,
        fixed_vgpr_parts={"thread id": _thread_id_vgprs(function)},
        fixed_sgpr_parts=_fixed_sgprs(module.bindings),
        exec_masks=exec_masks,
    )


# -- liveness across blocks -----------------------------------------------------------------

def _live_out_sets(function: Function) -> dict[Block, set[Inst]]:
    gen: dict[Block, set[Inst]] = {}
    defs: dict[Block, set[Inst]] = {}
    phi_uses: dict[Block, set[Inst]] = {block: set() for block in function.blocks}
    for block in function.blocks:
        defined = {inst for inst in block.insts if _is_value(inst)}
        defs[block] = defined
        gen[block] = {operand for inst in block.insts if inst.op is not Op.PHI
                      for operand in inst.operands if _is_value(operand) and operand not in defined}
        for phi in block.phis:
            for value, incoming in zip(phi.operands, phi.targets):
                if _is_value(value):
                    phi_uses.setdefault(incoming, set()).add(value)
    live_in = {block: set(gen[block]) for block in function.blocks}
    live_out: dict[Block, set[Inst]] = {block: set(phi_uses[block]) for block in function.blocks}
    changed = True
    while changed:
        changed = False
        for block in reversed(function.blocks):
            out = set(phi_uses[block])
            for successor in block.successors:
                out |= live_in.get(successor, set())
            if out != live_out[block]:
                live_out[block] = out
                live_in[block] = gen[block] | (out - defs[block])
                changed = True
    return live_out


def _exec_masks(function: Function, info: UniformityInfo, wave: int) -> dict[Block, int]:
    """SGPRs of saved exec masks live in each block: one lane mask per divergent region around it."""
    mask = wave // 32
    masks: dict[Block, int] = {}
    regions = ConstructRegions(function)
    for header in function.blocks:
        if header.kind is None or header.merge is None:
            continue
        if header.kind == "loop":
            members = regions.members(header) | {header}
            exits = [block for block in members if header.merge in block.successors]
            divergent = any(_branch_level(info, block) == LANE for block in exits)
        else:
            divergent = _branch_level(info, header) == LANE
            members = regions.members(header) if divergent else set()
        if divergent:
            for block in members:
                masks[block] = masks.get(block, 0) + mask
    return masks


def _branch_level(info: UniformityInfo, block: Block) -> int:
    term = block.terminator
    if term is None or term.op not in (Op.COND_BR, Op.SWITCH) or not term.operands:
        return 0
    condition = term.operands[0]
    return info.level(condition) if _is_value(condition) else 0


# -- register files and sizes ---------------------------------------------------------------

_VECTOR_UNIT_RESULTS = {  # instructions whose result is always written to VGPRs
    Op.LDS_LOAD, Op.LDS_ATOMIC, Op.SCRATCH_LOAD, Op.TEXTURE_LOAD, Op.TEXTURE_SAMPLE,
    Op.TEXTURE_GATHER, Op.BUFFER_ATOMIC, Op.F32TOF16, Op.F16TOF32, Op.DPP16, Op.DPP8, Op.PERMLANEX16,
    Op.DS_SWIZZLE, Op.DS_BPERMUTE, Op.LDS_EXCHANGE, Op.SET_INACTIVE, Op.WRITELANE, Op.MBCNT,
}
_FOLLOW_OPERANDS = {  # moves: they stay in the register file their data comes from
    Op.PHI, Op.SELECT, Op.CONSTRUCT, Op.EXTRACT, Op.INSERT, Op.SHUFFLE, Op.BITCAST,
}
_SCALAR_LOADABLE = {"StructuredBuffer", "ByteAddressBuffer", "cbuffer", "ConstantBuffer"}
_VALU_WHEN_FLOAT = ARITHMETIC | CONVERSIONS


def _register_banks(module: Module, info: UniformityInfo) -> dict[Inst, str]:
    """``"v"`` or ``"s"`` for every value; moves follow their operands to a fixed point."""
    bindings = {binding.name: binding for binding in module.bindings}
    banks: dict[Inst, str] = {}
    values = [inst for inst in module.function.instructions() if _is_value(inst)]
    for inst in values:
        banks[inst] = _bank(inst, info, bindings)
    changed = True
    while changed:
        changed = False
        for inst in values:
            if banks[inst] == "s" and inst.op in _FOLLOW_OPERANDS and not _is_bool(inst.type):
                data = inst.operands[1:] if inst.op is Op.SELECT else inst.operands
                if any(banks.get(operand) == "v" for operand in data):
                    banks[inst] = "v"
                    changed = True
    return banks


def _bank(inst: Inst, info: UniformityInfo, bindings: dict[str, Binding]) -> str:
    if _is_bool(inst.type):
        return "s"  # lane masks when divergent, SCC/an SGPR when uniform
    if info.level(inst) == LANE or inst.op in _VECTOR_UNIT_RESULTS:
        return "v"
    if inst.op in (Op.BUFFER_LOAD, Op.RESOURCE_INFO):
        binding = bindings.get(inst.attrs.get("resource", ""))
        kind = binding.kind if binding is not None else ""
        if inst.op is Op.RESOURCE_INFO:
            return "s" if kind and not _is_texture(kind) else "v"
        return "s" if kind in _SCALAR_LOADABLE else "v"
    if inst.op in _VALU_WHEN_FLOAT and _involves_float(inst):
        return "v"  # no SALU float arithmetic or conversion on gfx10
    return "s"


def _involves_float(inst: Inst) -> bool:
    if inst.op is Op.BITCAST:
        return False
    return _element_kind(inst.type) == "float" or any(
        _element_kind(operand.type) == "float" for operand in inst.operands)


def _is_texture(kind: str) -> bool:
    return kind in T.RESOURCE_KINDS and T.RESOURCE_KINDS[kind][2]


def _is_bool(t: T.Type) -> bool:
    return _element_kind(t) == "bool"


def _element_kind(t: T.Type) -> str | None:
    while isinstance(t, T.ArrayType):
        t = t.element
    element = getattr(t, "element", t)
    return element.kind if isinstance(element, T.ScalarType) else None


def _size(t: T.Type, bank: str, divergent: bool, wave: int) -> Regs:
    """Registers a value of type ``t`` takes in ``bank``, following the module's counting rules."""
    total = Regs()
    for element, count in _scalar_groups(t):
        if element.kind == "bool":
            total += Regs(0, count * (wave // 32 if divergent else 1))
        elif bank == "v":
            if element.bits == 16:
                total += Regs(ceil(count / 2), 0)
            else:
                total += Regs(count * max(1, element.bits // 32), 0)
        else:
            total += Regs(0, count * max(1, element.bits // 32))
    return total


def _scalar_groups(t: T.Type) -> list[tuple[T.ScalarType, int]]:
    """``t`` as (scalar element, count) groups: a vector is one group, a struct one per field."""
    if isinstance(t, T.ScalarType):
        return [(t, 1)]
    if isinstance(t, (T.VectorType, T.MatrixType)):
        return [(t.element, t.components)]
    if isinstance(t, T.ArrayType):
        return [(element, count * (t.size or 1)) for element, count in _scalar_groups(t.element)]
    if isinstance(t, T.StructType):
        return [group for _, field_type in t.fields for group in _scalar_groups(field_type)]
    return []  # resources, samplers: held as descriptors (fixed SGPRs), not values


# -- registers that are not IR values ------------------------------------------------------

def _thread_id_vgprs(function: Function) -> int:
    _, y, z = function.numthreads
    return 3 if z > 1 else 2 if y > 1 else 1


def _fixed_sgprs(bindings: list[Binding]) -> dict[str, int]:
    descriptors = sum(8 if _is_texture(binding.kind) else 4 for binding in bindings)
    parts = {"descriptor table": 2, "vcc": 2}
    if descriptors:
        parts = {"descriptors": descriptors, **parts}
    return parts
