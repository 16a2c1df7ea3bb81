"""A slow, obvious NumPy interpreter of the IR for one wave: the IR's executable semantics.

    from shc.compiler.ir.interpret.run import run_wave
    state = run_wave(module, wave_size=32, exec_mask=np.ones(32, bool),
                     lane_inputs={"group_index": ..., "group_thread_id": ..., "dispatch_thread_id": ...,
                                  "group_id": (x, y, z)},
                     buffers={"out": array}, cbuffers={"cb": {0: 1.5}}, lds=np.zeros(n, np.uint8))
    state.buffers["out"], state.lds, state.stats, state.barriers, state.value(inst)

It is the reference the lowering passes and the JIT are tested against (STYLE
item 15), so it runs the IR the way the hardware runs it and no faster.

Values. Every SSA value is a NumPy array with one row per lane (shape ``(W,)``,
``(W, n)`` for n-component values; arrays and structs are tuples of their members).
An instruction runs under the current exec mask: active lanes get the result,
inactive lanes keep what the value held before (0 before its first execution).
The IR leaves those lanes undefined; 0, or the value of an earlier loop iteration,
is what the model shows. ``wwm=true`` runs an instruction with every lane on.
Values that live in SGPRs are the same in every lane, as the register is:
constants, ``readlane``, ``readfirstlane``, ``ballot_mask``, ``bcnt``, ``group_id``,
cbuffer loads at a constant offset, and lane-local operations whose operands are
all such values (the static rule of ``_scalar_instructions``; these ignore exec).
One consequence is the hardware's: such a value defined in a loop and used after
it holds its last iteration's value in every lane (uniformity analysis calls that
temporal divergence). Lane-exchange primitives write the whole register their
hardware form writes (lanes they skip keep ``%old``). A barrier does nothing for
one wave: it is counted and its exec mask kept (``WaveState.barrier_masks``).
Arithmetic and conversions: ``interpret_arith``; memory and operand orders:
``interpret_memory``, ``interpret_textures``; wave ops: ``interpret_wave``.

Control flow (SIMT, structured). A selection header (``selection ^merge`` before
its ``cond_br``) runs the then side, then the else side, each under its lanes and
skipped when none; lanes reconverge at the merge. A loop header (``loop ^merge
^cont``) runs iterations while any lane is still in the loop: lanes that branch
to the merge (break) wait there, lanes that branch to the continue block
(continue) run it together once the body is done, and the continue block's branch
back to the header starts the next iteration. A ``switch`` (``switch_merge
^merge``) sends each lane to its case, then runs the case blocks in layout order,
so lanes falling through from one case run the next one together with that case's
own lanes. ``ret`` retires lanes until the end. A phi picks, per lane, the
incoming value of the block the lane arrived from. A branch out of a construct
(break, continue, early exit to a merge) parks its lanes at the construct that
owns the target; a terminator that could send lanes to two different blocks
outside that scheme (unstructured flow) is an ``InterpretError``, and so is
running more than ``max_steps`` instructions (a runaway loop).

    switch %selector, ^default, ^case_a, ^case_b {cases=[1, 7]}

(the default target first, then one target per entry of ``cases``; the default
may be the merge).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...frontend import hlsl_types as T
from . import arith as interpret_arith
from . import gather as interpret_gather
from . import memory as interpret_memory
from . import textures as interpret_textures
from . import wave as interpret_wave
from ..core import Block, Function, Inst, Module
from ..structure import classify
from .memory import as_bytes
from .values import InterpretError, Whole, coerce, merge, present, zeros
from ..ops import LANE_EXCHANGE, WAVE_OPS, Op

__all__ = ["InterpretError", "Stats", "WaveState", "run_wave"]

HANDLERS = {**interpret_arith.HANDLERS, **interpret_memory.HANDLERS, **interpret_textures.HANDLERS,
            **interpret_gather.HANDLERS, **interpret_wave.HANDLERS}

# ---------------------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------------------

_VMEM = {Op.BUFFER_LOAD, Op.BUFFER_STORE, Op.BUFFER_ATOMIC, Op.TEXTURE_LOAD, Op.TEXTURE_STORE,
         Op.TEXTURE_SAMPLE, Op.TEXTURE_GATHER, Op.RESOURCE_INFO, Op.SCRATCH_LOAD, Op.SCRATCH_STORE}
_LDS = {Op.LDS_LOAD, Op.LDS_STORE, Op.LDS_ATOMIC}
_CONTROL = {Op.PHI, Op.BR, Op.COND_BR, Op.SWITCH, Op.RETURN}
# Results that live in SGPRs whatever their operands are.
_SCALAR_RESULTS = {Op.CONST, Op.READLANE, Op.READFIRSTLANE, Op.BALLOT_MASK, Op.BCNT}
_SCALAR_CAPABLE = (set(interpret_arith.HANDLERS) - {Op.THREAD_INPUT}) | {Op.CBUFFER_LOAD}


def _scalar_instructions(function: Function) -> set[Inst]:
    """Instructions a scalar unit would run: SGPR results, and lane-local ops of only those.

    A cheap static rule (no control dependence): "SALU-ish" in the statistics.
    """
    scalar: set[Inst] = set()
    for inst in function.instructions():
        if inst.op in _SCALAR_RESULTS:
            scalar.add(inst)
        elif inst.op is Op.THREAD_INPUT and inst.attrs.get("which") == "group_id":
            scalar.add(inst)
        elif inst.op in _SCALAR_CAPABLE and "dpp" not in inst.attrs and \
                all(operand in scalar for operand in inst.operands):
            scalar.add(inst)
    return scalar


def stat_group(inst: Inst, scalar: set[Inst]) -> str:
    """The statistics group of one instruction: valu, salu, lane_exchange, wave, lds, vmem,
    barrier or control."""
    op = inst.op
    if op in _CONTROL:
        return "control"
    if op in LANE_EXCHANGE:
        return "lane_exchange"
    if op in WAVE_OPS:
        return "wave"
    if op in _LDS:
        return "lds"
    if op in _VMEM:
        return "vmem"
    if op is Op.BARRIER:
        return "barrier"
    if inst in scalar:
        return "salu"
    return "valu"


@dataclass
class Stats:
    """Instructions executed by group, and how many lanes were on for them.

    ``counts`` has a key per group of ``stat_group``; ``dpp_combined`` counts VALU
    ops that read operand 0 through DPP (they are also in ``valu``).
    ``mean_active_lanes`` averages over every non-control instruction.
    """

    counts: dict[str, int] = field(default_factory=dict)
    dpp_combined: int = 0
    instructions: int = 0
    active_lane_sum: int = 0
    steps: int = 0

    def add(self, group: str, active_lanes: int) -> None:
        self.counts[group] = self.counts.get(group, 0) + 1
        if group != "control":
            self.instructions += 1
            self.active_lane_sum += active_lanes

    @property
    def mean_active_lanes(self) -> float:
        return self.active_lane_sum / self.instructions if self.instructions else 0.0


@dataclass
class WaveState:
    """What a run leaves behind."""

    wave_size: int
    buffers: dict[str, np.ndarray | list[np.ndarray]]
    lds: np.ndarray
    scratch: np.ndarray
    stats: Stats
    barrier_masks: list[np.ndarray]
    retired: np.ndarray  # lanes that executed ret
    values: dict[Inst, np.ndarray | tuple]  # the interpreter's own (W, n) arrays

    @property
    def barriers(self) -> int:
        return len(self.barrier_masks)

    def value(self, inst: Inst):
        """The last value ``inst`` held: ``(W,)`` for scalars, ``(W, n)`` for vectors, a tuple
        for arrays and structs."""
        stored = self.values.get(inst)
        return present(stored if stored is not None else zeros(self.wave_size, inst.type), inst.type)


# ---------------------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------------------


def default_lane_inputs(function: Function, wave_size: int, given: dict | None) -> dict[str, np.ndarray]:
    """Thread inputs as ``(W, components)`` uint32 arrays, filling in what is not given.

    Lane i is thread ``group_index = i`` of group (0, 0, 0) unless told otherwise;
    ``group_thread_id`` follows from ``group_index`` and ``numthreads`` and
    ``dispatch_thread_id`` from ``group_id * numthreads + group_thread_id``.
    """
    given = dict(given or {})
    nx, ny, _ = function.numthreads
    group_index = np.asarray(given.get("group_index", np.arange(wave_size)), dtype=np.uint32).reshape(wave_size)
    if "group_thread_id" in given:
        thread = np.asarray(given["group_thread_id"], dtype=np.uint32).reshape(wave_size, -1)
    else:
        thread = np.stack([group_index % nx, group_index // nx % ny, group_index // (nx * ny)], axis=1)
    group = np.asarray(given.get("group_id", (0, 0, 0)), dtype=np.uint32).reshape(-1)
    if "dispatch_thread_id" in given:
        dispatch = np.asarray(given["dispatch_thread_id"], dtype=np.uint32).reshape(wave_size, -1)
    else:
        dispatch = group[None, :3] * np.array(function.numthreads, dtype=np.uint32)[None, :] + thread[:, :3]
    inputs = {
        "group_index": group_index[:, None],
        "group_thread_id": thread.astype(np.uint32),
        "group_id": np.repeat(group[None, :], wave_size, axis=0),
        "dispatch_thread_id": dispatch.astype(np.uint32),
    }
    for name, data in given.items():  # any other input the caller names
        if name not in inputs:
            inputs[name] = np.asarray(data).reshape(wave_size, -1)
    return inputs


def _copy_resource(resource):
    """A private copy: an array, or a list (resource array, mip chain) of them."""
    if isinstance(resource, (list, tuple)):
        return [_copy_resource(item) for item in resource]
    return np.array(resource, copy=True, order="C")


def _cbuffer_contents(contents):
    if isinstance(contents, dict):
        return contents
    if isinstance(contents, np.ndarray):
        return as_bytes(np.ascontiguousarray(contents)).copy()
    return np.frombuffer(bytes(contents), dtype=np.uint8).copy()


# ---------------------------------------------------------------------------------------
# the machine
# ---------------------------------------------------------------------------------------


@dataclass(eq=False)
class _Frame:
    """A construct being executed, and the lanes parked at the places it owns."""

    kind: str  # "if", "switch" or "loop"
    header: Block
    merge: Block
    cont: Block | None
    arrived: np.ndarray  # lanes at the merge (for loops: lanes that left the loop)
    back: np.ndarray  # loops: lanes for the next iteration
    continues: np.ndarray  # loops: lanes waiting at the continue block
    cases: list[Block] = field(default_factory=list)  # switches: the case blocks in layout order
    pending: dict[Block, np.ndarray] = field(default_factory=dict)  # switches: lanes per case


class _Machine:
    def __init__(self, module: Module, wave_size: int, exec_mask: np.ndarray, lane_inputs, buffers,
                 cbuffers, lds, max_steps: int):
        self.function = module.function
        self.wave_size = wave_size
        self.exec_mask = exec_mask.copy()  # the mask of the instruction being run (set_inactive reads it)
        self.lane_inputs = default_lane_inputs(self.function, wave_size, lane_inputs)
        self.bindings = {binding.name: binding for binding in module.bindings}
        self.buffers = {name: _copy_resource(array) for name, array in (buffers or {}).items()}
        self.cbuffers = {name: _cbuffer_contents(contents) for name, contents in (cbuffers or {}).items()}
        if lds is None:
            lds = np.zeros(max(module.lds_bytes, 0), dtype=np.uint8)
        self.lds = as_bytes(np.array(lds, copy=True, order="C"))
        self.scratch = np.zeros((wave_size, module.scratch_bytes), dtype=np.uint8)
        self.max_steps = max_steps
        self.values: dict[Inst, np.ndarray] = {}
        self.came_from = np.full(wave_size, -1, dtype=np.int64)  # per lane: index of the last block left
        self.block_index = {block: index for index, block in enumerate(self.function.blocks)}
        self.retired = np.zeros(wave_size, dtype=bool)
        self.frames: list[_Frame] = []
        self.barrier_masks: list[np.ndarray] = []
        self.stats = Stats()
        self.scalar = _scalar_instructions(self.function)
        self.no_lanes = np.zeros(wave_size, dtype=bool)

    # -- values ---------------------------------------------------------------------------

    def value(self, inst: Inst) -> np.ndarray:
        array = self.values.get(inst)
        return array if array is not None else zeros(self.wave_size, inst.type)

    def write(self, inst: Inst, result, lanes: np.ndarray) -> None:
        """Active lanes take ``result``, the others keep the value's previous contents."""
        self.values[inst] = merge(lanes, coerce(result, inst.type, self.wave_size), self.value(inst))

    # -- instructions ---------------------------------------------------------------------

    def step(self, inst: Inst, lanes: np.ndarray) -> None:
        self.stats.steps += 1
        if self.stats.steps > self.max_steps:
            raise InterpretError(f"more than {self.max_steps} steps: a runaway loop? (at {inst.op.value} "
                                 f"in ^{inst.block.name if inst.block else '?'})")
        self.stats.add(stat_group(inst, self.scalar), int(np.count_nonzero(lanes)))

    def execute(self, inst: Inst, lanes: np.ndarray) -> None:
        handler = HANDLERS.get(inst.op)
        if handler is None:
            raise InterpretError(f"{inst.op.value} is not supported by the interpreter")
        every_lane = np.ones(self.wave_size, dtype=bool)
        # wwm=true turns every lane on; a lane-local SALU op ignores exec altogether (ops that
        # read exec, such as readfirstlane and ballot_mask, still see it)
        salu = inst in self.scalar and (inst.op in _SCALAR_CAPABLE or inst.op is Op.THREAD_INPUT)
        exec_lanes = every_lane if inst.attrs.get("wwm") or salu else lanes
        self.exec_mask = lanes
        self.step(inst, exec_lanes if inst.attrs.get("wwm") else lanes)
        args = [self.value(operand) for operand in inst.operands]
        written = exec_lanes
        if "dpp" in inst.attrs:
            self.stats.dpp_combined += 1
            args[0], written = interpret_wave.dpp_operand(inst, args[0], exec_lanes)
        try:
            result = handler(self, inst, args, exec_lanes)
        except (ValueError, IndexError, KeyError) as failure:
            raise InterpretError(f"{inst.op.value} in ^{inst.block.name if inst.block else '?'}: "
                                 f"{failure}") from failure
        if result is None or inst.type == T.VOID:
            return
        if isinstance(result, Whole):
            self.write(inst, result.array, every_lane)
        else:
            self.write(inst, result, written)

    def execute_block(self, block: Block, lanes: np.ndarray) -> None:
        """The block's phis (all read before any is written), then its body, not its terminator."""
        phis = block.phis
        incoming = [(phi, self.phi_value(phi, lanes)) for phi in phis]
        for phi, result in incoming:
            self.step(phi, lanes)
            self.write(phi, result, lanes)
        for inst in block.insts[len(phis):]:
            if not inst.is_terminator:
                self.execute(inst, lanes)

    def phi_value(self, phi: Inst, lanes: np.ndarray) -> np.ndarray:
        result = self.value(phi)
        covered = np.zeros(self.wave_size, dtype=bool)
        for operand, predecessor in zip(phi.operands, phi.targets):
            chosen = lanes & (self.came_from == self.block_index.get(predecessor, -2))
            result = merge(chosen, coerce(self.value(operand), phi.type, self.wave_size), result)
            covered |= chosen
        missing = lanes & ~covered
        if missing.any():
            lane = int(np.flatnonzero(missing)[0])
            source = self.came_from[lane]
            source_name = self.function.blocks[source].name if source >= 0 else "<entry>"
            raise InterpretError(f"phi in ^{phi.block.name if phi.block else '?'} has no incoming value "
                                 f"for lane {lane} arriving from ^{source_name}")
        return result

    def terminate(self, block: Block, lanes: np.ndarray) -> list[tuple[Block, np.ndarray]]:
        """Run the terminator: the lanes going to each target, in target order (ret: none)."""
        term = block.terminator
        if term is None:
            raise InterpretError(f"^{block.name} does not end in a terminator")
        self.step(term, lanes)
        if term.op is Op.RETURN:
            self.retired |= lanes
            return []
        if term.op is Op.BR:
            return [(term.targets[0], lanes)]
        if term.op is Op.COND_BR:
            condition = self.value(term.operands[0])[:, 0].astype(bool)
            taken, not_taken = term.targets
            if taken is not_taken:
                return [(taken, lanes)]
            return [(taken, lanes & condition), (not_taken, lanes & ~condition)]
        if term.op is Op.SWITCH:
            return self.switch_targets(term, lanes)
        raise InterpretError(f"unknown terminator {term.op.value}")

    def switch_targets(self, term: Inst, lanes: np.ndarray) -> list[tuple[Block, np.ndarray]]:
        cases = list(term.attrs.get("cases", []))
        if len(term.targets) != len(cases) + 1:
            raise InterpretError("switch needs a default target and one target per entry of cases=[...]")
        selector = self.value(term.operands[0])[:, 0]
        remaining = lanes.copy()
        groups: dict[Block, np.ndarray] = {}
        for case_value, target in zip(cases, term.targets[1:]):
            matched = remaining & (selector == case_value)
            remaining &= ~matched
            groups[target] = groups.get(target, self.no_lanes) | matched
        default = term.targets[0]
        groups[default] = groups.get(default, self.no_lanes) | remaining
        return list(groups.items())

    # -- structured control flow ----------------------------------------------------------

    def classify(self, target: Block):
        """Where a branch to ``target`` parks its lanes (see ``ir/structure.py``)."""
        return classify(self.frames, target)

    def park(self, target: Block, lanes: np.ndarray) -> bool:
        place = self.classify(target)
        if place is None:
            return False
        frame, slot = place
        if slot == "pending":
            frame.pending[target] = frame.pending.get(target, self.no_lanes) | lanes
        else:
            setattr(frame, slot, getattr(frame, slot) | lanes)
        return True

    def leave(self, block: Block, groups: list[tuple[Block, np.ndarray]]) -> None:
        """Record where the lanes of each group come from (for phis)."""
        for _, lanes in groups:
            self.came_from[lanes] = self.block_index[block]

    def enter(self, target: Block, lanes: np.ndarray) -> None:
        if lanes.any() and not self.park(target, lanes):
            self.run(target, lanes)

    def run(self, block: Block, lanes: np.ndarray, enter_construct: bool = True) -> None:
        """Run ``lanes`` from ``block`` until every one of them is parked or retired."""
        while lanes.any():
            if block.kind is not None and enter_construct:
                lanes = self.run_construct(block, lanes)
                block = block.merge
                if not lanes.any() or self.park(block, lanes):
                    return
                continue
            enter_construct = True
            self.execute_block(block, lanes)
            groups = self.terminate(block, lanes)
            self.leave(block, groups)
            onward = []
            for target, group in groups:
                if self.classify(target) is None:
                    onward.append((target, group))
                elif group.any():
                    self.park(target, group)
            if len({id(target) for target, _ in onward}) > 1:
                names = ", ".join(f"^{target.name}" for target, _ in onward)
                raise InterpretError(f"unstructured branch in ^{block.name}: lanes could go to {names} "
                                     "(annotate a selection or branch to a loop's merge/continue)")
            live = [(target, group) for target, group in onward if group.any()]
            if not live:
                return
            block, lanes = live[0]

    def run_construct(self, header: Block, lanes: np.ndarray) -> np.ndarray:
        """Run a selection, switch or loop from its header; return the lanes at its merge."""
        if header.merge is None:
            raise InterpretError(f"^{header.name} is a {header.kind} header without a merge block")
        frame = _Frame(header.kind, header, header.merge, header.cont,
                       self.no_lanes.copy(), self.no_lanes.copy(), self.no_lanes.copy())
        self.frames.append(frame)
        try:
            if header.kind == "loop":
                self.run_loop(frame, lanes)
            else:
                self.run_selection(frame, lanes)
        finally:
            self.frames.pop()
        return frame.arrived

    def run_selection(self, frame: _Frame, lanes: np.ndarray) -> None:
        header = frame.header
        self.execute_block(header, lanes)
        groups = self.terminate(header, lanes)
        self.leave(header, groups)
        if frame.kind == "switch":
            targets = {target for target, _ in groups if target is not frame.merge}
            frame.cases = sorted(targets, key=lambda block: self.block_index[block])
        for target, side in groups:  # the then side first, an empty side is skipped
            self.enter(target, side)
        while any(waiting.any() for waiting in frame.pending.values()):
            for case in frame.cases:
                waiting = frame.pending.pop(case, self.no_lanes)
                if waiting.any():
                    self.run(case, waiting)

    def run_loop(self, frame: _Frame, lanes: np.ndarray) -> None:
        active = lanes
        while active.any():
            frame.back = self.no_lanes.copy()
            frame.continues = self.no_lanes.copy()
            self.run(frame.header, active, enter_construct=False)
            if frame.continues.any():
                self.run(frame.cont, frame.continues)
            active = frame.back


# ---------------------------------------------------------------------------------------
# entry point
# ---------------------------------------------------------------------------------------


def run_wave(module: Module, wave_size: int | None = None, exec_mask: np.ndarray | None = None,
             lane_inputs: dict | None = None, buffers: dict | None = None, cbuffers: dict | None = None,
             lds: np.ndarray | None = None, max_steps: int = 1_000_000) -> WaveState:
    """Run ``module``'s kernel for one wave and return what it wrote.

    ``wave_size`` defaults to the function's; ``exec_mask`` (bool, W lanes) to every
    lane; ``lane_inputs`` to lane i being thread i of group 0 (see
    ``default_lane_inputs``). ``buffers`` maps resource names to NumPy arrays (a list
    of arrays for a resource array), ``cbuffers`` maps cbuffer names to ``{byte
    offset: value}`` dicts or bytes; ``lds`` is the group's LDS as bytes (zeros of
    the module's groupshared size when omitted). Inputs are copied: the results are
    in the returned ``WaveState``.
    """
    wave_size = wave_size or module.function.wave_size
    if wave_size not in (32, 64):
        raise InterpretError(f"a wave has 32 or 64 lanes, not {wave_size}")
    if exec_mask is None:
        exec_mask = np.ones(wave_size, dtype=bool)
    exec_mask = np.asarray(exec_mask, dtype=bool).reshape(-1)
    if exec_mask.shape != (wave_size,):
        raise InterpretError(f"exec_mask has {exec_mask.size} lanes, the wave {wave_size}")
    machine = _Machine(module, wave_size, exec_mask, lane_inputs, buffers, cbuffers, lds, max_steps)
    machine.run(module.function.entry, exec_mask.copy())
    return WaveState(wave_size, machine.buffers, machine.lds, machine.scratch, machine.stats,
                     machine.barrier_masks, machine.retired, machine.values)
