"""Live VGPRs at every instruction of the final listing, the way Radeon GPU Analyzer shows them.

This works on physical registers after allocation (``Listing.function``), not on IR values:
what it counts is what the printed instructions hold. A tuple operand ``v[4:7]`` is four
registers; a component operand is the registers it names.

Hardware facts it follows:

- Control flow is linear: a divergent ``if`` runs its ``then`` side, then its ``else`` side,
  under exec masks, and skips a side only when no lane takes it (``s_cbranch_execz``). The
  CFG is the listing's: branch targets plus fall-through, loops closing with
  ``s_cbranch_execnz``/``s_cbranch_scc*`` back edges. No lane travels along the taken edge of
  ``s_cbranch_execz`` or the fall-through of ``s_cbranch_execnz`` (exec is empty there), so
  liveness does not flow along them: the path that skips both sides of an ``if``/``else``
  does not make their results live before the ``if``.
- A VALU write changes only the active lanes. Lanes that exec has switched off keep their
  registers, and read them when exec gives them back: at ``s_or_b32 exec_lo, exec_lo, sN``
  (the end of an ``if``, a loop or a switch), ``s_andn2_saveexec`` (the start of an
  ``else``), ``s_xor_b32 exec_lo, exec_lo, sN`` and ``s_mov_b32 exec_lo, sN`` (a waterfall
  loop), ``s_and_b32 exec_lo, sCopy, sCase`` (a switch's case), the second ``s_not``
  of a set-inactive. ``s_and_saveexec`` and ``exec & mask`` only switch lanes off.
- Some instructions read their destination: ``v_fmac``/``v_mac``, ``v_writelane``,
  ``v_permlanex16``, DPP moves that may keep the old value, atomics returning into their data.

The algorithm:

1. Backward dataflow over the listing's blocks to a fixed point, registers as bit sets: an
   operand makes its registers live, a write kills them. ``live[i]`` is what is live just
   before instruction ``i``; an instruction *holds* ``live[i]`` plus what it writes.
2. Parked lanes: for each instruction ``q`` that gives lanes back, the masks it reads are
   traced back to where those lanes were switched off (``_mask_pairs``). What is live just
   after ``q`` is what they need: it becomes a read at the instruction that parked them
   (so it stays live for them up to there) and is *held* at every instruction from where
   the mask was saved to ``q`` (back edges stretch that to the loop's head), even where the
   active lanes do not need it: an ``else`` side holds what the ``then`` side computed.
   Step 1 runs again with those reads until nothing changes.

Whether a register called free really is free is checked by running the listing simulator
with every such register overwritten, in every lane, before every instruction
(``tests/backend/test_livereg.py``).

Each row's bar has one column per allocated VGPR: ``:`` held, ``.`` held only for lanes
exec has parked, ``^`` written here, ``v`` read here and still needed, ``x`` read here
for the last time, blank free.
"""

from __future__ import annotations

from dataclasses import dataclass

from .live_ranges import successors
from .machine import MFunction, MInst, Special, SubReg, VReg

HELD, PARKED, WRITTEN, READ, LAST_READ, FREE = ":", ".", "^", "v", "x", " "


@dataclass(frozen=True)
class LiveRow:
    """One instruction of the listing and the VGPRs it holds."""

    line: int  # 1-based line of the listing text
    text: str  # the instruction as printed (without its comment)
    live: int  # VGPRs held while it runs
    registers: tuple[int, ...]  # their numbers, ascending
    bar: str = ""  # one mark per allocated VGPR (see the module docstring)

    def to_dict(self) -> dict:
        return {"line": self.line, "text": self.text, "live": self.live, "registers": list(self.registers),
                "bar": self.bar}


@dataclass(frozen=True)
class LiveRegisters:
    """Every instruction's row, the peak, and the registers the kernel allocates."""

    rows: list[LiveRow]
    allocated: int
    used: int
    wave_size: int

    @property
    def peak(self) -> int:
        return max((row.live for row in self.rows), default=0)

    @property
    def peak_rows(self) -> list[LiveRow]:
        return [row for row in self.rows if row.live == self.peak]


def _bits(operands: list, cls: str = "v") -> int:
    """The physical registers of class ``cls`` that ``operands`` name, as a bit set."""
    bits = 0
    for operand in operands:
        if isinstance(operand, VReg):
            first, count = operand.phys, operand.size
        elif isinstance(operand, SubReg):
            first, count = (None if operand.base.phys is None else operand.base.phys + operand.index), operand.count
        else:
            continue
        if operand.cls == cls and first is not None:
            bits |= ((1 << count) - 1) << first
    return bits


_KEEP_DESTINATION = ("v_permlanex16_b32", "v_permlane16_b32", "v_writelane_b32", "v_fmac_", "v_mac_", "v_pk_fmac_",
                     "v_dot2c_")


def keeps_old_lanes(inst: MInst) -> bool:
    """Whether ``inst`` reads its destination: accumulating forms (``v_fmac_f32``), one-lane writes
    (``v_writelane_b32``), permutes and DPP moves that keep the old value where a source lane is
    out of reach or masked off (``v_permlanex16_b32``, DPP without ``bound_ctrl:1`` or full masks),
    and memory atomics that return the old value in the register holding their data (``glc``)."""
    name = inst.mnemonic
    if name.startswith(("v_permlane16_b32", "v_permlanex16_b32")) and inst.modifiers.startswith("op_sel:["):
        return False  # fetch_inactive or bound_ctrl: every active lane is written (selects stay in the row)
    if name.startswith(_KEEP_DESTINATION) or "_atomic_" in name or "UNUSED_PRESERVE" in inst.modifiers:
        return True
    if "_dpp" in name or "dpp8:" in inst.modifiers:
        modifiers = inst.modifiers
        full = "row_mask:0xf" in modifiers and "bank_mask:0xf" in modifiers
        return "dpp8:" not in modifiers and not ("bound_ctrl:1" in modifiers and full)
    return False


def _only_narrows(inst: MInst) -> bool:
    """Whether an exec write can only switch lanes off: exec ANDed with a mask
    (``s_and_saveexec_b32``, ``s_andn2_b32 exec_lo, exec_lo, s6``)."""
    name = inst.mnemonic
    if name.startswith("s_and_saveexec"):
        return True
    reads_exec = any(isinstance(op, Special) and op.name in ("exec", "exec_lo") for op in inst.uses)
    return name.startswith(("s_and_b", "s_andn2_b")) and reads_exec and (
        name.startswith("s_and_b") or isinstance(inst.uses[0], Special))


def _writes_exec(inst: MInst) -> bool:
    """Whether ``inst`` changes exec (``s_*_saveexec_*`` write it implicitly)."""
    return "saveexec" in inst.mnemonic or any(isinstance(op, Special) and op.name in ("exec", "exec_lo") for op in inst.defs)


class _Program:
    """The listing's instructions in order, with each one's block and register sets."""

    def __init__(self, function: MFunction):
        self.function = function
        self.insts: list[MInst] = []
        self.block_range: dict[int, tuple[int, int]] = {}
        for number, block in enumerate(function.blocks):
            start = len(self.insts)
            self.insts += [inst for inst in block.insts if not inst.is_marker]
            self.block_range[number] = (start, len(self.insts))
        self.block_index = [number for number, (start, end) in self.block_range.items() for _ in range(start, end)]
        self.uses = [_bits(inst.uses) | (_bits(inst.defs) if keeps_old_lanes(inst) else 0) for inst in self.insts]
        self.defs = [_bits(inst.defs) for inst in self.insts]
        index = {id(block): number for number, block in enumerate(function.blocks)}
        self.succ = {index[id(block)]: [index[id(s)] for s in targets]
                     for block, targets in successors(function).items()}
        self.lane_succ = {number: self._lane_successors(number) for number in self.succ}
        self.pairs = self._mask_pairs()

    def _lane_successors(self, number: int) -> list[int]:
        """Successors that lanes travel to: not the taken ``s_cbranch_execz`` edge nor the
        fall-through of ``s_cbranch_execnz`` (both are taken only with exec empty)."""
        start, end = self.block_range[number]
        last = self.insts[end - 1] if end > start else None
        targets = list(self.succ[number])
        if last is None or last.mnemonic not in ("s_cbranch_execz", "s_cbranch_execnz"):
            return targets
        label = next((op.name for op in last.uses if hasattr(op, "name")), None)
        branch = [t for t in targets if self.function.blocks[t].label == label]
        if last.mnemonic == "s_cbranch_execz":
            return [t for t in targets if t not in branch]
        return branch

    def _mask_pairs(self) -> list[tuple[int, int, list[int]]]:
        """(save, restore, parking points) for each instruction that may give lanes back to exec.

        The restore reads saved masks; their origin is traced back through the scalar
        instructions that computed them. Where the origin saved exec as it changed it
        (``s_and_saveexec``, ``s_andn2_saveexec``), the lanes were parked there. Where lanes
        were collected into the mask (``s_or_b32 s5, s5, s6`` of a loop's exits, ``s_or_b32
        s13, s13, exec_lo`` of a switch's breaks), each was parked by the next exec write.
        Where the origin is a copy of exec (``s_mov_b32 s3, exec_lo``), by the write that
        retires lanes before a waterfall loop branches back, or else by any exec write
        between the copy and the restore (a switch's cases select from the copy)."""
        pairs = []
        inverted = None  # the open ``s_not exec`` of a set-inactive: the next one switches back
        for q, inst in enumerate(self.insts):
            if inst.mnemonic.startswith("s_not_") and _writes_exec(inst):
                if inverted is not None:
                    pairs.append((inverted, q, [inverted]))
                inverted = None if inverted is not None else q
                continue
            masks = _bits(inst.uses, "s")
            if not _writes_exec(inst) or not masks or _only_narrows(inst):
                continue
            save, collected = self._origin(q, masks)
            if save is None:
                continue
            writers = [k for k in range(save, q) if _writes_exec(self.insts[k])]
            if _writes_exec(self.insts[save]):
                parking = [save]
            elif collected:
                parking = [min((k for k in writers if k > a), default=q) for a in collected]
                parking = [k for k in parking if k < q]
            else:
                latches = [k for k in writers if self.insts[k + 1].mnemonic == "s_cbranch_execnz"]
                parking = latches or writers
            pairs.append((save, q, parking))
        return pairs

    def _origin(self, q: int, masks: int) -> tuple[int | None, list[int]]:
        """Where the masks ``q`` reads come from (the earliest origin), and the ``s_or`` that
        collected lanes into them on the way."""
        origin, collected = None, []
        pending = [(q, 1 << bit) for bit in range(masks.bit_length()) if masks >> bit & 1]
        seen = set()
        while pending:
            before, reg = pending.pop()
            for i in range(before - 1, -1, -1):
                if not _bits(self.insts[i].defs, "s") & reg:
                    continue
                if (i, reg) in seen:
                    break
                seen.add((i, reg))
                read = _bits(self.insts[i].uses, "s")
                if _writes_exec(self.insts[i]) or not read:
                    origin = i if origin is None else min(origin, i)
                    break
                if self.insts[i].mnemonic.startswith("s_or_") and read & reg:
                    collected.append(i)
                pending += [(i, 1 << bit) for bit in range(read.bit_length()) if read >> bit & 1]
                break
        return origin, collected

    def live_before(self, extra: list[int]) -> list[int]:
        """Registers live just before each instruction (backward dataflow to a fixed point);
        ``extra`` adds reads (what parked lanes need) at chosen instructions."""
        blocks = range(len(self.function.blocks))
        uses = [u | e for u, e in zip(self.uses, extra)]
        gen, kill = {}, {}
        for number in blocks:
            start, end = self.block_range[number]
            used = killed = 0
            for i in range(start, end):
                used |= uses[i] & ~killed
                killed |= self.defs[i]
            gen[number], kill[number] = used, killed
        live_in = {number: 0 for number in blocks}
        changed = True
        while changed:
            changed = False
            for number in reversed(blocks):
                out = 0
                for target in self.lane_succ[number]:
                    out |= live_in[target]
                new = gen[number] | (out & ~kill[number])
                if new != live_in[number]:
                    live_in[number] = new
                    changed = True
        live = [0] * len(self.insts)
        for number in blocks:
            start, end = self.block_range[number]
            current = 0
            for target in self.lane_succ[number]:
                current |= live_in[target]
            for i in range(end - 1, start - 1, -1):
                current = (current & ~self.defs[i]) | uses[i]
                live[i] = current
        self.live_in = live_in
        return live

    def live_after(self, live: list[int], i: int) -> int:
        """Registers live just after instruction ``i``: live into what its lanes run next."""
        number = self.block_index[i]
        start, end = self.block_range[number]
        if i + 1 < end:
            return live[i + 1]
        after = 0
        for target in self.lane_succ[number]:
            after |= self.live_in[target]
        return after

    def solve(self) -> tuple[list[int], list[int]]:
        """Live registers per instruction for the active lanes, and those held for parked lanes."""
        extra = [0] * len(self.insts)
        while True:
            live = self.live_before(extra)
            needs = [0] * len(self.insts)
            for _, q, parking in self.pairs:
                for k in parking:
                    needs[k] |= self.live_after(live, q)
            if needs == extra:
                break
            extra = needs
        parked = [0] * len(self.insts)
        for save, q, _ in self.pairs:
            held = self.live_after(live, q)
            for i in range(self.stretch_over_loops(save, q), q):
                parked[i] |= held
        return live, parked

    def stretch_over_loops(self, start: int, end: int) -> int:
        """``start`` moved back to the head of every loop whose back edge lies in ``[start, end)``."""
        firsts = {number: self.block_range[number][0] for number in self.succ}
        changed = True
        while changed:
            changed = False
            for number, targets in self.succ.items():
                block_start, block_end = self.block_range[number]
                if block_end <= block_start or not start <= block_end - 1 < end:
                    continue
                for target in targets:
                    if firsts[target] < start:
                        start, changed = firsts[target], True
        return start


def live_registers(function: MFunction, allocated: int, used: int, listing_text: str | None = None) -> LiveRegisters:
    """The rows of ``function`` (an allocated listing); ``listing_text`` gives their line numbers."""
    program = _Program(function)
    live, parked = program.solve()
    lines = _instruction_lines(listing_text, function.name, len(program.insts)) if listing_text else None
    width = max(allocated, used)
    rows = []
    for i, inst in enumerate(program.insts):
        active = live[i] | program.defs[i]
        after = program.live_after(live, i) | parked[i]
        held = active | parked[i]
        marks = []
        for reg in range(width):
            bit = 1 << reg
            if program.defs[i] & bit:
                marks.append(WRITTEN)
            elif program.uses[i] & bit:
                marks.append(READ if after & bit else LAST_READ)
            elif active & bit:
                marks.append(HELD)
            elif parked[i] & bit:
                marks.append(PARKED)
            else:
                marks.append(FREE)
        registers = tuple(reg for reg in range(held.bit_length()) if held >> reg & 1)
        number = lines[i] if lines else i + 1
        rows.append(LiveRow(number, inst.format(), len(registers), registers, "".join(marks)))
    return LiveRegisters(rows, allocated, used, function.wave_size)


def _instruction_lines(text: str, name: str, count: int) -> list[int]:
    """The 1-based line of each instruction in the listing text (indented lines after ``name:``)."""
    numbers = []
    body = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not body:
            body = line == f"{name}:"
            continue
        if line.startswith("  ") and not line.lstrip().startswith(";"):
            numbers.append(number)
    if len(numbers) != count:
        raise ValueError(f"the listing text has {len(numbers)} instruction lines, the function {count}")
    return numbers


def render_livereg(text: str, result: LiveRegisters) -> str:
    """The listing with a live count and a register bar in front of every instruction, then the peak."""
    by_line = {row.line: row for row in result.rows}
    width = max(result.allocated, result.used)
    ruler = "".join(str(reg // 10 % 10) if reg % 10 == 0 else " " for reg in range(width))
    units = "".join(str(reg % 10) for reg in range(width))
    blank = " " * width
    out = [f"line  live |{ruler}|", f"           |{units}|"]
    for number, line in enumerate(text.splitlines(), start=1):
        row = by_line.get(number)
        if row is None:
            out.append(f"{number:>4}       |{blank}| {line}")
        else:
            out.append(f"{number:>4}  {row.live:>4} |{row.bar}| {line.strip()}")
    out.append("")
    out.append(f"; wave{result.wave_size}: peak {result.peak} live VGPRs; {result.used} used, "
               f"{result.allocated} allocated")
    for row in result.peak_rows:
        out.append(f";   at line {row.line}: {row.text}")
    out.append(f"; marks: '{HELD}' live, '{PARKED}' held for lanes switched off by exec, '{WRITTEN}' written, "
               f"'{READ}' read, '{LAST_READ}' last read")
    return "\n".join(out) + "\n"
