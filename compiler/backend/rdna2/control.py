"""Exec-mask control flow: structured IR regions to branches and lane masks.

The IR's regions (``if``/``switch`` headers naming their merge, loops naming merge and
continue blocks) are laid out contiguously, so a region is the run of blocks between
its header and its merge. Each region is *uniform* or *divergent*:

- an ``if``/``switch`` is divergent when its condition is (uniformity ``LANE``);
- a loop is divergent when a lane can leave it, or skip to its continue block, on its
  own: an exit or ``continue`` edge on a divergent condition, or one taken inside a
  divergent region nested in the loop. A ``switch`` whose ``break`` is taken inside a
  divergent region is divergent too.

Uniform regions branch on SCC (``s_cmp_*`` + ``s_cbranch_scc0/1``, ``s_branch``).
Divergent regions run every block in layout order and change ``exec``, as LLVM's
SI control-flow lowering does (wave64: ``exec``/``_b64``; wave32: ``exec_lo``/``_b32``):

    if (c) A else B     s_and_saveexec S, c ; s_xor S, exec, S ; s_cbranch_execz .else
                        A
              .else:    s_andn2_saveexec S, S ; s_cbranch_execz .merge
                        B
              .merge:   s_or exec, exec, S
    if (c) A            as above without s_xor (S = exec before) unless a lane can leave A
    loop                E = 0 before the loop; an exit adds the leaving lanes to E and
                        removes them from exec; ``continue`` parks lanes in C until the
                        continue block; the latch branches back with s_cbranch_execnz;
                        after the loop exec |= E
    switch              one v_cmp per case value; each case block enables its lanes
                        (plus those falling through); ``break`` parks lanes in D
    waterfall           s_and_saveexec on the lanes sharing the first lane's index, the
                        access, s_xor exec to retire them, s_cbranch_execnz back

A lane that leaves a region early (``break``) is simply absent from exec, so every
restore ORs back only the lanes its region disabled. Phis become copies at the end of
each predecessor, before its exec changes: a copy made for lanes that go elsewhere is
overwritten before the phi's block reads it, and VGPR copies only touch active lanes.
A divergent bool phi merges lane masks: ``(P & ~exec) | (value & exec)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...frontend import hlsl_types as T
from ...ir.core import Block, Inst
from ...ir.ops import Op
from ...passes.uniformity import LANE, _level_of
from .isel_values import Val, element
from .machine import IMPLICIT_DEF, Imm, SubReg, VReg


@dataclass(eq=False)
class Region:
    kind: str  # "if", "switch" or "loop"
    header: Block
    merge: Block
    cont: Block | None
    members: set
    span: tuple[int, int]
    parent: Region | None = None
    divergent: bool = False
    waterfall: bool = False
    mask: VReg | None = None  # if: lanes of the other side; loop: exited lanes; switch: done lanes
    cont_mask: VReg | None = None  # loop: lanes that took ``continue`` this iteration
    entry_mask: VReg | None = None  # switch: lanes entering; waterfall: exec before the loop
    case_masks: dict = field(default_factory=dict)  # switch: target block -> lane mask
    inverted: bool = False  # a divergent if with an empty true side: only the false side runs


class ControlFlow:
    """Mixin for ``Selector``: regions, block prologues, terminators and phi copies."""

    # --------------------------------------------------------------- planning
    def plan_control(self, layout: list[Block]) -> None:
        self.layout = layout
        self.index = {block: position for position, block in enumerate(layout)}
        self.ir_preds = {block: [p for p in preds if p in self.index]
                         for block, preds in self.function.predecessors().items()}
        self.regions: list[Region] = []
        self.region_of_header: dict[Block, Region] = {}
        for block in layout:
            if block.kind is None or block.merge not in self.index or block.terminator is None:
                continue
            if block.terminator.op not in (Op.COND_BR, Op.SWITCH, Op.BR):
                continue
            start, end = self.index[block], self.index[block.merge]
            first = start if block.kind == "loop" else start + 1
            members = set(layout[first:end])
            region = Region(block.kind, block, block.merge, block.cont, members, (first, end))
            self.regions.append(region)
            self.region_of_header[block] = region
        by_size = sorted(self.regions, key=lambda r: r.span[1] - r.span[0])
        for region in self.regions:
            region.parent = next((other for other in by_size if other is not region and region.header in
                                  other.members and region.members <= other.members | {other.merge}), None)
        self.innermost: dict[Block, Region | None] = {}
        for block in layout:
            self.innermost[block] = next((r for r in by_size if block in r.members), None)
        self.started_masks: set[int] = set()
        for _ in range(len(self.regions) + 1):
            for region in by_size:
                region.divergent = self.is_divergent(region)
            if not self.repair_uniformity():
                break
        for region in by_size:
            if region.kind == "loop" and region.divergent and self.is_waterfall(region):
                region.waterfall = True
                test = self.region_of_header[region.header.terminator.targets[0]]
                self.coalesced.update(test.merge.phis)  # the access result is the loop's result
                self.coalesced.update(region.merge.phis)
            if region.kind == "if" and region.divergent and self.else_block(region) is not None:
                then = region.header.terminator.targets[0]
                empty = len(then.insts) == 1 and then.insts[0].op is Op.BR and then.insts[0].targets[0] is region.merge
                if then is region.merge or empty:  # nothing to do for the true side: run only the false one
                    region.inverted = True
                    self.skipped.update([then] if empty else [])
        # What each block's prologue does, innermost region first.
        self.merges_at: dict[Block, list[Region]] = {}
        self.prologue_roles: dict[Block, list[tuple[str, Region]]] = {}
        for region in by_size:
            self.merges_at.setdefault(region.merge, []).append(region)
            if not region.divergent:
                continue
            roles = self.prologue_roles
            roles.setdefault(region.merge, []).append(("merge", region))
            if region.kind == "loop" and not region.waterfall and region.cont is not None:
                roles.setdefault(region.cont, []).append(("cont", region))
            if region.kind == "if" and not region.inverted and self.else_block(region) is not None:
                roles.setdefault(self.else_block(region), []).append(("else", region))
            if region.kind == "switch":
                for target in region.header.terminator.targets:
                    if target is not region.merge:
                        roles.setdefault(target, []).append(("case", region))

    def repair_uniformity(self) -> bool:
        """Phis where lanes of one wave may arrive by different edges are divergent.

        The uniformity pass only weighs the merge blocks of regions; a ``switch`` case block
        that another case falls into, or a loop's continue block reached by ``continue``
        under a divergent condition, also joins lanes that went different ways. Such phis
        (and what is computed from them) become divergent here. Returns whether any changed.
        """
        joins = set()
        for region in self.regions:
            if not region.divergent:
                continue
            joins.add(region.merge)
            if region.kind == "switch":
                term = region.header.terminator
                joins.update(term.targets)
            if region.kind == "loop" and region.cont is not None:
                joins.add(region.cont)
        forced = [phi for block in joins if block in self.index for phi in block.phis
                  if self.info.level(phi) != LANE]
        for region in self.regions:  # a lane that left a divergent loop early keeps its own values
            if region.kind != "loop" or not region.divergent:
                continue
            for block in region.members:
                for inst in block.insts:
                    if inst.type != T.VOID and self.info.level(inst) != LANE and any(
                            user.block not in region.members for user in self.users.get(inst, [])):
                        forced.append(inst)
        if not forced:
            return False
        levels = dict(self.info.levels)
        for phi in forced:
            levels[phi] = LANE
        changed = True
        while changed:
            changed = False
            for block in self.layout:
                for inst in block.insts:
                    old = levels.get(inst, LANE if inst.op is not Op.CONST else 0)
                    new = max(old, _level_of(inst, levels, old))
                    if new != old:
                        levels[inst] = new
                        changed = True
        from ...passes.uniformity import UniformityInfo
        from ...passes.liveness import _register_banks

        self.info = UniformityInfo(levels, self.info.block_levels)
        self.banks = _register_banks(self.module, self.info)
        return True

    def is_divergent(self, region: Region) -> bool:
        header = region.header
        if region.kind in ("if", "switch"):
            term = header.terminator
            if term.op is not Op.BR and self.info.level(term.operands[0]) == LANE:
                return True
            if region.kind == "if":
                return False
        targets = {region.merge} | ({region.cont} if region.kind == "loop" else set())
        for block in region.members:
            term = block.terminator
            if term is None:
                continue
            for target in term.targets:
                if target not in targets or (target is region.cont and self.natural_continue(block, region)):
                    continue
                if term.op in (Op.COND_BR, Op.SWITCH) and self.info.level(term.operands[0]) == LANE:
                    return True
                inner = self.innermost.get(block)
                while inner is not None and inner is not region:
                    if inner.divergent:
                        return True
                    inner = inner.parent
        return False

    def natural_continue(self, block: Block, loop: Region) -> bool:
        return self.innermost.get(block) is loop and self.index[block] + 1 == self.index.get(loop.cont, -1)

    def is_waterfall(self, loop: Region) -> bool:
        """The waterfall pass's loop shape (``passes/waterfall.py``)."""
        head = loop.header
        if not head.name.startswith("wf") or len(head.insts) != 3 or head.insts[0].op is not Op.READFIRSTLANE:
            return False
        test = head.terminator.targets[0]
        if test.kind != "if" or test not in self.region_of_header:
            return False
        join = test.merge
        term = join.terminator
        return term is not None and term.op is Op.COND_BR and term.targets[0] is loop.merge \
            and term.targets[1] is loop.cont and len(loop.cont.insts) == 1

    # ------------------------------------------------------------- edge kinds
    def classify(self, block: Block, target: Block) -> tuple[str, Region | None]:
        header_region = self.region_of_header.get(block)
        if header_region is not None and header_region.kind in ("if", "switch") and (
                target in header_region.members or target is header_region.merge):
            return "enter", header_region
        region = self.innermost.get(block)
        while region is not None:
            if target is region.merge:
                if region.kind == "loop":
                    return "exit", region
                if region.kind == "switch":
                    return "break", region
                return "merge", region
            if region.kind == "loop" and target is region.cont:
                return ("fall" if self.natural_continue(block, region) else "continue"), region
            if region.kind == "loop" and target is region.header:
                return "back", region
            region = region.parent
        return "fall", None

    def masked(self, kind: str, region: Region | None) -> bool:
        return region is not None and region.divergent and kind in ("exit", "continue", "break")

    def is_next(self, block: Block, target: Block) -> bool:
        position = self.index[block] + 1
        while position < len(self.layout) and self.layout[position] in self.skipped:
            position += 1
        return self.index.get(target) == position

    def thread(self, target: Block) -> Block:
        """Skip a block that only branches on (an empty ``then`` side of a uniform ``if``)."""
        while (len(target.insts) == 1 and target.insts[0].op is Op.BR and not target.phis
               and len(self.ir_preds.get(target, ())) == 1
               and target not in self.region_of_header and not self.has_prologue(target)):
            following = target.insts[0].targets[0]
            kind, region = self.classify(target, following)
            if following.phis or self.has_prologue(following) or kind not in ("merge", "fall") or \
                    (region is not None and region.divergent) or following in self.region_of_header:
                break
            self.skipped.add(target)
            target = following
        return target

    def has_prologue(self, block: Block) -> bool:
        return bool(self.prologue_roles.get(block))

    # -------------------------------------------------------------- prologues
    def begin_block(self, block: Block) -> None:
        self.new_block(self.label(block), f"^{block.name}")
        for phi in block.phis:
            if phi not in self.values and phi not in self.coalesced:
                self.result(phi)
        roles = self.prologue_roles.get(block, ())
        for role, region in roles:
            if role == "merge":
                self.restore(region)
        for role, region in roles:
            if role == "cont" and region.cont_mask is not None:
                self.emit(f"s_or_{self.b}", [self.exec], [self.exec, region.cont_mask], comment="continued lanes")
                self.emit(f"s_mov_{self.b}", [region.cont_mask], [Imm(0)])
            elif role == "else" and not self.in_waterfall_test(region):
                self.emit(f"s_andn2_saveexec_{self.b}", [region.mask], [region.mask], comment="else")
                self.branch("s_cbranch_execz", self.label(region.merge))
            elif role == "case" and block in region.case_masks:
                self.enter_case(region, block)

    def restore(self, region: Region) -> None:
        if not region.divergent:
            return
        if region.waterfall:
            self.emit(f"s_mov_{self.b}", [self.exec], [region.entry_mask], comment="waterfall done")
            return
        if region.kind == "if" and self.in_waterfall_test(region):
            for phi in region.merge.phis:  # the joined value is the access result itself
                access = next(v for v, t in zip(phi.operands, phi.targets) if t is not region.header)
                self.values[phi] = self.val(access)
            return
        if region.mask is not None:
            self.emit(f"s_or_{self.b}", [self.exec], [self.exec, region.mask], comment=f"end {region.kind} ^{region.header.name}")

    def else_block(self, region: Region) -> Block | None:
        term = region.header.terminator
        if term.op is not Op.COND_BR:
            return None
        other = term.targets[1]
        return None if other is region.merge else other

    def in_waterfall_test(self, region: Region) -> bool:
        parent = region.parent
        return parent is not None and parent.waterfall and region.header is parent.header.terminator.targets[0]

    def enter_case(self, region: Region, block: Block) -> None:
        previous = self.layout[self.index[block] - 1]
        term = previous.terminator
        falls_in = previous is not region.header and term is not None and block in term.targets
        lanes = self.mask_reg()
        if falls_in:
            self.emit(f"s_and_{self.b}", [lanes], [region.entry_mask, region.case_masks[block]])
            self.emit(f"s_or_{self.b}", [self.exec], [self.exec, lanes], comment="case")
        else:
            self.emit(f"s_and_{self.b}", [self.exec], [region.entry_mask, region.case_masks[block]], comment="case")
        later = [b for b in region.case_masks if self.index[b] > self.index[block]]
        skip = min(later, key=self.index.get) if later else region.merge
        self.branch("s_cbranch_execz", self.label(skip))

    # ------------------------------------------------------------ terminators
    def terminator(self, block: Block, inst: Inst) -> None:
        if inst.op is Op.RETURN:
            self.emit("s_endpgm")
            return
        if inst.op is Op.BR:
            self.unconditional(block, inst.targets[0])
        elif inst.op is Op.COND_BR:
            self.conditional(block, inst.operands[0], *inst.targets)
        elif inst.op is Op.SWITCH:
            self.select_switch(block, inst)

    def unconditional(self, block: Block, target: Block) -> None:
        kind, region = self.classify(block, target)
        self.phi_copies(block, target)
        self.loop_entry(block, target)
        if region is not None and region.waterfall:
            return  # the waterfall's own branches are emitted at its join
        if self.masked(kind, region):
            if kind == "break" and self.is_next(block, target):
                return
            park = self.continue_mask(region) if kind == "continue" else region.mask
            self.emit(f"s_or_{self.b}", [park], [park, self.exec], comment=kind)
            self.emit(f"s_mov_{self.b}", [self.exec], [Imm(0)])
            return
        if kind == "back" and region.divergent:
            self.branch("s_cbranch_execnz", self.label(target))
            if not self.is_next(block, region.merge):
                self.branch("s_branch", self.label(region.merge))
            return
        if kind == "merge" and region.divergent:
            return  # falls into the else side's or the merge's exec update
        if not self.is_next(block, target):
            self.branch("s_branch", self.label(target))

    def conditional(self, block: Block, condition: Inst, when_true: Block, when_false: Block) -> None:
        kinds = [self.classify(block, target) for target in (when_true, when_false)]
        (kind_t, region_t), (kind_f, region_f) = kinds
        if kind_t == "enter" and region_t.kind == "if" and region_t.divergent:
            if self.in_waterfall_test(region_t):
                self.waterfall_test(region_t, condition)
            else:
                self.divergent_if(block, region_t, condition, when_true, when_false)
            return
        for kind, region in kinds:
            if region is not None and region.waterfall and kind == "exit":
                self.waterfall_latch(block, region)
                return
        if self.masked(kind_t, region_t) or self.masked(kind_f, region_f):
            self.masked_branch(block, condition, when_true, when_false, kinds)
            return
        self.uniform_branch(block, condition, when_true, when_false, kinds)

    def uniform_branch(self, block: Block, condition: Inst, when_true: Block, when_false: Block, kinds) -> None:
        if not any(kind == "back" for kind, _ in kinds) and when_true is not when_false:
            if not when_true.phis:
                when_true = self.thread(when_true)
            if not when_false.phis:
                when_false = self.thread(when_false)
        back = [target for target, (kind, _) in zip((when_true, when_false), kinds) if kind == "back"]
        for target in (when_true, when_false):
            if target not in back:
                self.phi_copies(block, target)
                self.loop_entry(block, target)
        if back:
            (target,) = back
            other = when_false if target is when_true else when_true
            self.scc_from(condition)
            self.branch("s_cbranch_scc1" if other is when_true else "s_cbranch_scc0", self.label(other))
            self.phi_copies(block, target)
            self.branch("s_branch", self.label(target))
            return
        self.scc_from(condition)
        if self.is_next(block, when_true):
            self.branch("s_cbranch_scc0", self.label(when_false))
        elif self.is_next(block, when_false):
            self.branch("s_cbranch_scc1", self.label(when_true))
        else:
            self.branch("s_cbranch_scc1", self.label(when_true))
            self.branch("s_branch", self.label(when_false))

    def divergent_if(self, block: Block, region: Region, condition: Inst, when_true: Block,
                     when_false: Block) -> None:
        for target in (when_true, when_false):
            self.phi_copies(block, target)
        mask = self.mask(condition)
        if region.inverted:  # an empty then-side: run the else side on the inverted mask
            if when_true is not region.merge:  # an empty true block: its phi copies happen here
                self.phi_copies(when_true, region.merge)
            inverted = self.mask_reg()
            self.emit(f"s_not_{self.b}", [inverted], [mask])
            mask, when_true, when_false = inverted, when_false, region.merge
        region.mask = self.mask_reg(f"^{region.header.name} exec")
        self.salu(f"s_and_saveexec_{self.b}", [region.mask], [mask])
        inside = region.members | {region.merge}  # no break/continue/return out: S restores exec
        if when_false is not region.merge or not all(b.successors and set(b.successors) <= inside
                                                     for b in region.members):
            self.emit(f"s_xor_{self.b}", [region.mask], [self.exec, region.mask])
        self.branch("s_cbranch_execz", self.label(when_false))

    def masked_branch(self, block: Block, condition: Inst, when_true: Block, when_false: Block, kinds) -> None:
        """A conditional exit/continue/break of a divergent region: park the leaving lanes."""
        (kind_t, region_t), (kind_f, region_f) = kinds
        leaving_on_true = self.masked(kind_t, region_t)
        leave, stay = (when_true, when_false) if leaving_on_true else (when_false, when_true)
        kind, region = kinds[0] if leaving_on_true else kinds[1]
        stay_kind, stay_region = kinds[1] if leaving_on_true else kinds[0]
        self.phi_copies(block, leave)
        mask = self.mask(condition)
        lanes = self.mask_reg(kind)
        if leaving_on_true:
            self.salu(f"s_and_{self.b}", [lanes], [self.exec, mask])
        else:
            self.salu(f"s_andn2_{self.b}", [lanes], [self.exec, mask])
        park = self.continue_mask(region) if kind == "continue" else region.mask
        self.emit(f"s_or_{self.b}", [park], [park, lanes], comment=kind)
        self.emit(f"s_andn2_{self.b}", [self.exec], [self.exec, lanes])
        if self.masked(stay_kind, stay_region):  # both edges leave: park the rest too
            other = self.continue_mask(stay_region) if stay_kind == "continue" else stay_region.mask
            self.emit(f"s_or_{self.b}", [other], [other, self.exec], comment=stay_kind)
            self.emit(f"s_mov_{self.b}", [self.exec], [Imm(0)])
            return
        self.phi_copies(block, stay)
        if stay_kind == "back":
            self.branch("s_cbranch_execnz", self.label(stay))
            if not self.is_next(block, stay_region.merge):
                self.branch("s_branch", self.label(stay_region.merge))
            return
        if not self.is_next(block, stay):
            self.branch("s_branch", self.label(stay))
            return
        if self.innermost.get(block) is region and region.kind == "loop":
            skip = region.merge if block is region.header else region.cont
            self.branch("s_cbranch_execz", self.label(skip))

    def loop_entry(self, block: Block, target: Block) -> None:
        """Entering a divergent loop: no lane has left it yet."""
        region = self.region_of_header.get(target)
        if region is None or region.kind != "loop" or block in region.members or not region.divergent:
            return
        if region.waterfall:
            region.entry_mask = self.mask_reg("waterfall exec")
            self.emit(f"s_mov_{self.b}", [region.entry_mask], [self.exec], comment="waterfall")
            return
        region.mask = self.mask_reg(f"^{region.header.name} exited")
        self.emit(f"s_mov_{self.b}", [region.mask], [Imm(0)])
        if self.has_continues(region):
            self.emit(f"s_mov_{self.b}", [self.continue_mask(region)], [Imm(0)])

    def continue_mask(self, region: Region) -> VReg:
        """The lanes that took ``continue`` this iteration, parked until the continue block."""
        if region.cont_mask is None:
            region.cont_mask = self.mask_reg(f"^{region.header.name} continued")
        return region.cont_mask

    def has_continues(self, region: Region) -> bool:
        return any(region.cont in (b.terminator.targets if b.terminator else []) and not
                   self.natural_continue(b, region) for b in region.members)

    # --------------------------------------------------------------- switch
    def select_switch(self, block: Block, inst: Inst) -> None:
        region = self.region_of_header[block]
        selector = self.component(inst.operands[0], 0)
        default, cases = inst.targets[0], list(zip(inst.attrs["cases"], inst.targets[1:]))
        for target in dict.fromkeys(inst.targets):
            self.phi_copies(block, target)
        if not region.divergent:
            selector = self.to_sgpr(selector) if self.is_vgpr(selector) else selector
            for value, target in cases:
                self.salu("s_cmp_eq_u32", [], [selector, self.immediate(value, T.UINT)])
                self.branch("s_cbranch_scc1", self.label(target))
            if not self.is_next(block, default):
                self.branch("s_branch", self.label(default))
            return
        region.entry_mask = self.mask_reg("switch lanes")
        region.mask = self.mask_reg("switch done")
        self.emit(f"s_mov_{self.b}", [region.entry_mask], [self.exec])
        any_case = None
        for value, target in cases:
            hit = self.mask_reg(f"case {value}")
            self.valu("v_cmp_eq_u32", [hit], [self.immediate(value, T.UINT), selector])
            if target in region.case_masks:
                merged = self.mask_reg()
                self.emit(f"s_or_{self.b}", [merged], [region.case_masks[target], hit])
                hit = merged
            region.case_masks[target] = hit
            combined = self.mask_reg()
            if any_case is None:
                any_case = hit
            else:
                self.emit(f"s_or_{self.b}", [combined], [any_case, hit])
                any_case = combined
        if default is region.merge:
            self.emit(f"s_andn2_{self.b}", [region.mask], [region.entry_mask, any_case])
        else:
            other = self.mask_reg("default")
            self.emit(f"s_andn2_{self.b}", [other], [region.entry_mask, any_case])
            region.case_masks[default] = other
            self.emit(f"s_mov_{self.b}", [region.mask], [Imm(0)])

    # ------------------------------------------------------------- waterfall
    def waterfall_test(self, region: Region, condition: Inst) -> None:
        region.mask = self.mask_reg("waterfall lanes")
        self.salu(f"s_and_saveexec_{self.b}", [region.mask], [self.mask(condition)], )

    def waterfall_latch(self, block: Block, loop: Region) -> None:
        test = self.region_of_header[loop.header.terminator.targets[0]]
        for phi in loop.merge.phis:
            self.values[phi] = self.val(phi.operands[0])
        self.emit(f"s_xor_{self.b}", [self.exec], [self.exec, test.mask], comment="retire the lanes served")
        self.branch("s_cbranch_execnz", self.label(loop.header))

    # ----------------------------------------------------------------- phis
    def phi_copies(self, block: Block, target: Block) -> None:
        pairs = [(phi, value) for phi in target.phis if phi not in self.coalesced
                 for value, pred in zip(phi.operands, phi.targets) if pred is block]
        if not pairs:
            return
        written = {phi for phi, _ in pairs}
        snapshots = {}
        for phi, value in pairs:
            if value in written and value is not phi and value not in snapshots:
                saved = self.result_like(value)
                self.copy_value(value, saved, value)
                snapshots[value] = saved
        for phi, value in pairs:
            if value is phi:
                continue
            if phi not in self.values:
                self.result(phi)
            source = snapshots.get(value)
            self.copy_value(phi, self.values[phi], value, source)

    def result_like(self, value: Inst):
        original = self.values[value]
        return Val([VReg(original.bank if not isinstance(p, VReg) else p.cls, self.width(p)) for p in original.parts],
                   original.bank, original.packed)

    def copy_value(self, phi: Inst, target, value: Inst, source=None) -> None:
        if source is not None:
            parts = source.parts
        elif target.packed:
            parts = self.packed_parts(value)
        elif element(value.type).kind == "bool":
            parts = [self.mask(value, k) for k in range(len(target.parts))]
        else:
            parts = [self.component(value, k) for k in range(len(target.parts))] \
                if not self.values.get(value) or not self.values[value].packed else self.val(value).parts
        divergent_bool = element(phi.type).kind == "bool" and self.divergent(phi)
        for dst, src in zip(target.parts, parts):
            if dst is src or (isinstance(dst, SubReg) and isinstance(src, SubReg) and dst.base is src.base
                              and dst.index == src.index):
                continue
            if divergent_bool:
                if id(dst) not in self.started_masks:
                    self.started_masks.add(id(dst))
                    self.emit(IMPLICIT_DEF, [dst])
                if isinstance(src, Imm) and src.value == -1:
                    self.emit(f"s_or_{self.b}", [dst], [dst, self.exec])
                    continue
                self.emit(f"s_andn2_{self.b}", [dst], [dst, self.exec])
                if isinstance(src, Imm) and src.value == 0:
                    continue
                keep = self.mask_reg()
                self.salu(f"s_and_{self.b}", [keep], [src, self.exec])
                self.emit(f"s_or_{self.b}", [dst], [dst, keep])
            elif element(phi.type).kind == "bool":
                self.salu(f"s_mov_{self.b}", [dst], [src])
            else:
                self.move(dst, src, target.bank)
