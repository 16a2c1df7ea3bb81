"""Structured control flow under exec masks, emitted the way the interpreter runs it.

The walk mirrors ``interpret.run._Machine.run`` statically: where the interpreter
keeps the lanes parked at a construct's merge, continue block, loop header or
switch case in NumPy masks, the JIT keeps them in ``<W x i1>`` stack slots (zeroed
at the start of every call, promoted to registers by mem2reg):

* a selection runs its header, then the then side, then the else side, each
  skipped when its mask is empty; lanes reconverge at the merge. A condition
  that uniformity analysis proved wave-uniform is a scalar ``i1``: the header
  ends in a plain branch and no mask changes.
* a loop runs iterations while any lane is left: lanes that break wait at the
  merge, lanes that continue run the continue block together once the body is
  done, and the back edge checks ``*ctx->stop`` (the watchdog).
* a switch sends each lane to its case, then runs the cases in layout order, so
  lanes falling through run the next case together with its own lanes.
* ``ret`` retires lanes.

Phis are written on the edges: when lanes leave a block for a target with phis,
each phi's home takes, on those lanes, the operand for that edge (all operands
read before any is written). Lanes reach a phi's block at different times; each
edge writes only its own lanes, so the home holds each lane's value when the
block runs (the per-lane phi as selects on the incoming masks). A loop header's
phi is written whole instead when every loop it is read after has its lanes leave
together (``divergence.exits_split``): a lane that reads it inside a run of its loop
entered by that run's entry edge, which wrote it, and took every back edge since;
one that reads it after the loop left with all the others, at the last write; any
other lane never reads this value (a uint4 running sum in a uniform loop: 16
selects and their loads fewer a round).

Every block of the walk is entered with a non-empty mask, so a block's scalar
(uniform) results and stores are only computed when some lane needs them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ...ir.core import Block, Inst
from ...ir.structure import classify
from ...ir.ops import Op
from .analysis import use_sites
from .llvm_text import V, is_vector
from .values import Value, cast, vselect, wave_scalar
from ...frontend import hlsl_types as T


class UnstructuredFlow(NotImplementedError):
    """The IR's control flow is not the structured shape the JIT runs."""


@dataclass(eq=False)
class Construct:
    """A selection, switch or loop being emitted, with the stack slots of its parked lanes."""

    kind: str
    header: Block
    merge: Block
    cont: Block | None
    arrived: V  # lanes at the merge (loops: lanes that left)
    back: V | None = None  # loops: lanes for the next iteration
    continues: V | None = None  # loops: lanes waiting at the continue block
    cases: list[Block] = field(default_factory=list)  # switches: case blocks in layout order
    pending: dict[Block, V] = field(default_factory=dict)  # switches: lanes per case
    running_case: int = -1  # switches: index of the case being emitted


class FlowEmitter:
    """Mixin for the kernel emitter: the walk over blocks and constructs."""

    # -- parked lanes ----------------------------------------------------------------------

    def mask_var(self) -> V:
        return self.b.alloca(self.b.mask_ty)

    def load_mask(self, var: V) -> V:
        return self.b.load(self.b.mask_ty, var, align=64)

    def store_mask(self, mask: V, var: V) -> None:
        self.b.store(mask, var, align=64)

    def classify(self, target: Block):
        """Where a branch to ``target`` parks its lanes (see ``ir/structure.py``)."""
        return classify(self.frames, target)

    def park(self, target: Block, mask: V) -> bool:
        place = self.classify(target)
        if place is None:
            return False
        frame, slot = place
        if slot == "pending":
            if self.block_index[target] <= self.block_index.get(self._running_case(frame), -1):
                raise UnstructuredFlow(f"switch case ^{target.name} is reached from a later case")
            var = frame.pending[target]
        else:
            var = getattr(frame, slot)
        self.store_mask(self.b.mask_or(self.load_mask(var), mask), var)
        return True

    @staticmethod
    def _running_case(frame: Construct) -> Block | None:
        return frame.cases[frame.running_case] if 0 <= frame.running_case < len(frame.cases) else None

    def guard(self, mask: V, done: str) -> None:
        """Continue only if ``mask`` has a lane; otherwise branch to ``done``."""
        onward = self.b.label("go")
        self.b.cbr(self.b.any_lane(mask), onward, done)
        self.b.start(onward)

    # -- phis on edges ---------------------------------------------------------------------

    def edges(self, source: Block, target: Block, mask: V, taken: bool) -> None:
        """Write ``target``'s phis for the lanes in ``mask`` coming from ``source``.

        ``taken`` says the edge is known to carry lanes (a plain or uniform branch):
        then a uniform phi is written outright, otherwise only if the mask has a lane.
        """
        incoming = []
        for phi in target.phis:
            operand = next((op for op, pred in zip(phi.operands, phi.targets) if pred is source), None)
            if operand is not None:
                incoming.append((phi, self.get(operand)))
        b = self.b
        for phi, value in incoming:
            value = self.fit(phi, value, mask)
            slots = self.home(phi)
            whole = self.written_whole(phi)
            for (slot, ty), part in zip(slots, value.parts):
                if is_vector(ty):
                    if not whole:
                        part = b.select(mask, part, b.load(ty, slot, align=64))
                elif not taken:
                    part = b.select(b.any_lane(mask), part, b.load(ty, slot, align=64))
                b.store(part, slot, align=64)

    @cached_property
    def _whole_phis(self) -> dict[Inst, bool]:
        """Loop header phis written whole on their edges (``written_whole``), by phi."""
        sites = use_sites(self.function)
        whole = {}
        for block in self.function.blocks:
            if block.kind != "loop":
                continue
            for phi in block.phis:
                whole[phi] = not any(block in body and any(where not in body for where in sites.get(phi, []))
                                     and self.divergence.exits_split(header)
                                     for header, body in self.plan.loop_bodies.items())
        return whole

    def written_whole(self, phi: Inst) -> bool:
        """Whether ``phi``'s home takes whole vectors on its edges (see the module's doc)."""
        return self._whole_phis.get(phi, False)

    # -- the walk --------------------------------------------------------------------------

    def run(self, block: Block, lanes: V, enter_construct: bool = True) -> None:
        """Emit ``lanes`` running from ``block`` until all of them are parked or retired."""
        done = self.b.label("done")
        self._run(block, lanes, enter_construct, done)
        self.b.start(done)

    def _run(self, block: Block, lanes: V, enter_construct: bool, done: str) -> None:
        while True:
            if block.kind is not None and enter_construct:
                lanes = self.emit_construct(block, lanes)
                block = block.merge
                if self.park(block, lanes):
                    self.b.br(done)
                    return
                self.guard(lanes, done)
                continue
            enter_construct = True
            lanes = self.emit_block(block, lanes)
            onward = self.leave_block(block, lanes, done)
            if onward is None:
                return
            block, lanes = onward

    def condition(self, block: Block) -> V:
        term = block.terminator
        value = self.get(term.operands[0]).parts[0]
        return cast(self.b, value, T.element_of(term.operands[0].type), T.BOOL)

    def leave_block(self, block: Block, lanes: V, done: str) -> tuple[Block, V] | None:
        """A plain block's terminator: park lanes, or return where the walk goes on."""
        term = block.terminator
        if term is None:
            raise UnstructuredFlow(f"^{block.name} does not end in a terminator")
        b = self.b
        if term.op is Op.RETURN:
            b.br(done)
            return None
        if term.op is Op.COND_BR and term.targets[0] is not term.targets[1]:
            return self._leave_conditionally(block, lanes, done)
        if term.op in (Op.BR, Op.COND_BR):
            target = term.targets[0]
            self.edges(block, target, lanes, True)
            if self.park(target, lanes):
                b.br(done)
                return None
            return target, lanes
        raise UnstructuredFlow(f"{term.op.value} in ^{block.name} outside a switch header")

    def _leave_conditionally(self, block: Block, lanes: V, done: str) -> tuple[Block, V] | None:
        b = self.b
        taken, not_taken = block.terminator.targets
        condition = self.condition(block)
        onward = [target for target in (taken, not_taken) if self.classify(target) is None]
        if len(onward) > 1:
            raise UnstructuredFlow(f"unstructured branch in ^{block.name}: lanes could go to "
                                   f"^{taken.name} and ^{not_taken.name}")
        if not is_vector(condition.ty):  # a uniform branch: every lane goes one way
            labels = {taken: b.label("t"), not_taken: b.label("f")}
            b.cbr(condition, labels[taken], labels[not_taken])
            for target in (taken, not_taken):
                if target not in onward:
                    b.start(labels[target])
                    self.edges(block, target, lanes, True)
                    self.park(target, lanes)
                    b.br(done)
            if not onward:
                return None
            b.start(labels[onward[0]])
            self.edges(block, onward[0], lanes, True)
            return onward[0], lanes
        masks = {taken: b.mask_and(lanes, condition), not_taken: b.mask_and(lanes, b.mask_not(condition))}
        for target, mask in masks.items():
            self.edges(block, target, mask, False)
        for target, mask in masks.items():
            if target not in onward:
                self.park(target, mask)
        if not onward:
            b.br(done)
            return None
        self.guard(masks[onward[0]], done)
        return onward[0], masks[onward[0]]

    def enter(self, target: Block, mask: V, nonempty: bool = False) -> None:
        """Lanes go to ``target``: park them, or run them there if there are any."""
        if self.park(target, mask):
            return
        if nonempty:
            self.run(target, mask)
            return
        b = self.b
        go, skip = b.label("side"), b.label("join")
        b.cbr(b.any_lane(mask), go, skip)
        b.start(go)
        self.run(target, mask)
        b.start(skip)

    # -- constructs ------------------------------------------------------------------------

    def emit_construct(self, header: Block, lanes: V) -> V:
        """Run a selection, switch or loop from its header; return the lanes at its merge."""
        if header.merge is None:
            raise UnstructuredFlow(f"^{header.name} is a {header.kind} header without a merge block")
        frame = Construct(header.kind, header, header.merge, header.cont, self.mask_var())
        self.store_mask(self.b.no_lanes(), frame.arrived)
        self.frames.append(frame)
        try:
            if header.kind == "loop":
                self.emit_loop(frame, lanes)
            else:
                self.emit_selection(frame, lanes)
        finally:
            self.frames.pop()
        return self.load_mask(frame.arrived)

    def emit_selection(self, frame: Construct, lanes: V) -> None:
        b = self.b
        header = frame.header
        lanes = self.emit_block(header, lanes)
        term = header.terminator
        if term is None:
            raise UnstructuredFlow(f"^{header.name} does not end in a terminator")
        if term.op is Op.SWITCH:
            self.emit_switch(frame, lanes)
            return
        if term.op is Op.RETURN:
            return
        taken, not_taken = (term.targets + term.targets)[:2]
        if term.op is Op.BR or taken is not_taken:
            self.edges(header, taken, lanes, True)
            self.enter(taken, lanes, nonempty=True)
            return
        condition = self.condition(header)
        if not is_vector(condition.ty):
            then_label, else_label, join = b.label("then"), b.label("else"), b.label("endif")
            b.cbr(condition, then_label, else_label)
            for label, target in ((then_label, taken), (else_label, not_taken)):
                b.start(label)
                self.edges(header, target, lanes, True)
                self.enter(target, lanes, nonempty=True)
                b.br(join)
            b.start(join)
            return
        then_mask = b.mask_and(lanes, condition)
        else_mask = b.mask_and(lanes, b.mask_not(condition))
        self.edges(header, taken, then_mask, False)
        self.edges(header, not_taken, else_mask, False)
        else_var = self.mask_var()  # the then side may hold a barrier: keep the mask in memory
        self.store_mask(else_mask, else_var)
        self.enter(taken, then_mask)
        self.enter(not_taken, self.load_mask(else_var))

    def emit_switch(self, frame: Construct, lanes: V) -> None:
        b = self.b
        header = frame.header
        term = header.terminator
        cases = list(term.attrs.get("cases", []))
        if len(term.targets) != len(cases) + 1:
            raise UnstructuredFlow("switch needs a default target and one target per entry of cases=[...]")
        selector = self.get(term.operands[0]).parts[0]
        remaining = lanes
        groups: dict[Block, V] = {}
        for case_value, target in zip(cases, term.targets[1:]):
            hit = b.icmp("eq", selector, b.const(selector.ty, case_value))
            matched = vselect(b, hit, remaining, b.no_lanes()) if not is_vector(hit.ty) else \
                b.mask_and(remaining, hit)
            remaining = b.mask_and(remaining, b.mask_not(matched))
            groups[target] = b.mask_or(groups.get(target, b.no_lanes()), matched)
        default = term.targets[0]
        groups[default] = b.mask_or(groups.get(default, b.no_lanes()), remaining)
        frame.cases = sorted((t for t in groups if t is not frame.merge), key=self.block_index.__getitem__)
        for case in frame.cases:
            frame.pending[case] = self.mask_var()
            self.store_mask(b.no_lanes(), frame.pending[case])
        for target, mask in groups.items():
            self.edges(header, target, mask, False)
        for target, mask in groups.items():
            self.enter(target, mask)
        for index, case in enumerate(frame.cases):
            frame.running_case = index
            self.enter_waiting(case, frame.pending[case])

    def enter_waiting(self, block: Block, var: V) -> None:
        b = self.b
        go, skip = b.label("case"), b.label("next")
        waiting = self.load_mask(var)
        b.cbr(b.any_lane(waiting), go, skip)
        b.start(go)
        self.run(block, waiting)
        b.start(skip)

    def emit_loop(self, frame: Construct, lanes: V) -> None:
        b = self.b
        frame.back, frame.continues = self.mask_var(), self.mask_var()
        active_var = self.mask_var()
        self.store_mask(lanes, active_var)
        head, leave = b.label("loop"), b.label("endloop")
        b.br(head)
        b.start(head)
        self.store_mask(b.no_lanes(), frame.back)
        self.store_mask(b.no_lanes(), frame.continues)
        self.run(frame.header, self.load_mask(active_var), enter_construct=False)
        if frame.cont is not None and frame.cont is not frame.header:
            self.enter_waiting(frame.cont, frame.continues)
        back = self.load_mask(frame.back)
        self.store_mask(back, active_var)
        self.watchdog()
        b.cbr(b.any_lane(back), head, leave)
        b.start(leave)

    # -- values at joins -------------------------------------------------------------------

    def fit(self, inst, value: Value, exec_mask: V) -> Value:
        """``value`` in the representation of ``inst``'s home (splat, or the first active lane)."""
        b = self.b
        parts = []
        for (slot, ty), part in zip(self.home(inst), value.parts):
            if is_vector(ty):
                parts.append(b.splat(part))
            else:
                parts.append(wave_scalar(b, part, exec_mask))
        return Value(parts)
