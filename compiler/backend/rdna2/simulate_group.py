"""Running an allocated listing for a whole dispatch: every wave of every group, ``s_barrier``,
one LDS per group, ``s_waitcnt`` checked.

    state = simulate_dispatch(function, module, (2, 1, 1), buffers={"out": array}, cbuffers={"C": data})
    problem = state.difference("out", jit_output_bytes)   # None, or where the listing went wrong

``simulate.py`` says what one wave's instructions do; this starts the waves the way the ABI
of ``isel_memory.setup_abi`` expects them. Wave ``w`` of a group holds the group's flat
threads ``w*W .. w*W+W-1``: ``v0``/``v1``/``v2`` their thread ids x/y/z (the axes numthreads
uses), ``s2``/``s3``/``s4`` the group id, exec the lanes that are threads (the last wave may
be partial). The waves of a group take turns: each runs until it reaches ``s_barrier`` or
``s_endpgm``; once every wave waits at the same barrier, all go on. A wave that ends while
others wait, or waves waiting at different barriers, is an error naming the source lines (a
barrier in control flow that is not uniform across the group). Groups run one after another
in x, y, z order, each with its own zeroed LDS; the bound buffers are shared by all.

Each wave's ``s_waitcnt`` is checked (``simulate_waits.py``): a register read before the wait
for the load writing it is an error naming both instructions. And every byte of a bound array
remembers the store that wrote it last (a buffer store or atomic: the bytes it addressed; an
image store: the bytes it changed), so a difference from another executor names the source
line behind the first differing element (``DispatchState.difference``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...diagnostics import SourceCache, display_path
from ...ir.core import Module
from .machine import MFunction, MInst
from .simulate import Machine, SimulationError
from .simulate_waits import Outstanding

_VECTOR_MEMORY = ("buffer_load", "buffer_store", "buffer_atomic", "image_", "scratch_")
_IMAGE_STORES = ("image_store", "image_atomic")  # buffer stores report their bytes themselves


@dataclass
class DispatchState:
    buffers: dict
    sources: SourceCache
    steps: int = 0
    executed: dict = field(default_factory=dict)  # mnemonic -> count
    arrays: dict = field(default_factory=dict)  # "name" or "name[i]" (an element or mip of a list) -> its array
    writers: dict = field(default_factory=dict)  # the same keys -> per byte, index into ``stores`` (-1: none)
    stores: list = field(default_factory=list)
    store_numbers: dict = field(default_factory=dict)  # id(inst) -> its index in ``stores``

    def store_number(self, inst: MInst) -> int:
        if id(inst) not in self.store_numbers:
            self.store_numbers[id(inst)] = len(self.stores)
            self.stores.append(inst)
        return self.store_numbers[id(inst)]

    def record_store(self, inst: MInst, name: str, address: int, size: int) -> None:
        """A buffer store or atomic wrote ``size`` bytes of ``name`` at ``address`` (if inside it)."""
        written = self.writers.get(name)
        if written is not None and 0 <= address and address + size <= len(written):
            written[address:address + size] = self.store_number(inst)

    def where(self, inst: MInst) -> str:
        """``file:line: text`` of the HLSL line an instruction came from."""
        coord = inst.coord
        if coord.line <= 0:
            return "<no source line>"
        text = self.sources.line(coord.file, coord.line)
        return f"{display_path(coord.file)}:{coord.line}" + (f": {text.strip()}" if text is not None else "")

    def difference(self, name: str, expected: bytes, dtype=np.uint32) -> str | None:
        """None if array ``name`` (a buffer, or ``"name[i]"`` for item i of a list of arrays: a
        resource array's element, a texture's mip) holds exactly ``expected``; else the first differing element
        (read as ``dtype``) and the listing instruction that last wrote it, with its source line.
        Float elements that are NaN on both sides agree (HLSL leaves a NaN's bits open)."""
        got = self.arrays[name].reshape(-1).view(np.uint8)
        want = np.frombuffer(expected, np.uint8)
        if got.nbytes != want.nbytes:
            return f"'{name}': the listing's buffer has {got.nbytes} bytes, the other {want.nbytes}"
        dtype = np.dtype(dtype) if got.nbytes % np.dtype(dtype).itemsize == 0 else np.dtype(np.uint8)
        size = dtype.itemsize
        bits = np.dtype(f"u{size}")
        same = got.view(bits) == want.view(bits)
        if dtype.kind == "f":
            same |= np.isnan(got.view(dtype)) & np.isnan(want.view(dtype))
        wrong = np.flatnonzero(~same)
        if not wrong.size:
            return None
        element = int(wrong[0])
        span = slice(element * size, element * size + size)
        first_byte = element * size + int(np.flatnonzero(got[span] != want[span])[0])
        written = self.writers.get(name)
        store = int(written[first_byte]) if written is not None else -1
        blame = (f"last written by '{self.stores[store].format()}' from {self.where(self.stores[store])}"
                 if store >= 0 else "never written by the listing")
        ours, theirs = got.view(bits)[element], want.view(bits)[element]
        return (f"'{name}' differs at {len(wrong)} element(s); first [{element}]: listing 0x{int(ours):0{2 * size}x}, "
                f"expected 0x{int(theirs):0{2 * size}x}; {blame}")


@dataclass(eq=False)
class Wave:
    machine: Machine
    number: int
    block: int = 0
    position: int = 0
    ended: bool = False
    barrier: MInst | None = None  # the s_barrier it waits at
    outstanding: Outstanding = field(default_factory=Outstanding)


def simulate_dispatch(function: MFunction, module: Module, groups=(1, 1, 1), buffers: dict | None = None,
                      cbuffers: dict | None = None, sources: SourceCache | None = None, lds_bytes: int | None = None,
                      max_steps: int = 200_000) -> DispatchState:
    """Run ``groups`` = (gx, gy, gz) workgroups of an allocated listing with its waits inserted;
    ``lds_bytes`` is the group's LDS (``Listing.lds_bytes``: the kernel's and the lane exchanges')."""
    if lds_bytes is None:
        lds_bytes = module.lds_bytes + getattr(function, "extra_lds", 0)
    state = DispatchState({name: _copy(array) for name, array in (buffers or {}).items()}, sources or SourceCache())
    for name, resource in state.buffers.items():
        items = enumerate(resource) if isinstance(resource, list) else [(None, resource)]
        for index, array in items:
            if isinstance(array, np.ndarray):
                key = name if index is None else f"{name}[{index}]"
                state.arrays[key] = array
                state.writers[key] = np.full(array.nbytes, -1, np.int32)
    gx, gy, gz = groups
    for z in range(gz):
        for y in range(gy):
            for x in range(gx):
                _run_group(function, module, (x, y, z), state, cbuffers or {}, lds_bytes, max_steps)
    return state


def _run_group(function: MFunction, module: Module, group, state: DispatchState, cbuffers: dict, lds_bytes: int,
               max_steps: int) -> None:
    lds = np.zeros(max(lds_bytes, 4), dtype=np.uint8)
    waves = [Wave(_start(function, module, number, group, state, cbuffers, lds), number)
             for number in range(-(-_thread_count(module) // function.wave_size))]
    labels = {block.label: number for number, block in enumerate(function.blocks)}
    while True:
        for wave in waves:
            if not wave.ended and wave.barrier is None:
                _run_wave(wave, labels, state, max_steps)
        waiting = [wave for wave in waves if wave.barrier is not None]
        if not waiting:
            return
        ended = [wave for wave in waves if wave.ended]
        if ended:
            raise SimulationError(f"group {group}: waves {[w.number for w in waiting]} wait at s_barrier "
                                  f"({state.where(waiting[0].barrier)}) but waves {[w.number for w in ended]} "
                                  "ended without reaching it: a barrier in control flow the group does not "
                                  "take together")
        distinct = {id(wave.barrier): wave for wave in waiting}
        if len(distinct) > 1:
            places = "; ".join(f"wave {wave.number} at {state.where(wave.barrier)}" for wave in distinct.values())
            raise SimulationError(f"group {group}: the waves wait at different barriers ({places})")
        for wave in waiting:
            wave.barrier = None


def _thread_count(module: Module) -> int:
    x, y, z = module.function.numthreads
    return x * y * z


def _start(function: MFunction, module: Module, number: int, group, state: DispatchState, cbuffers: dict,
           lds: np.ndarray) -> Machine:
    """Wave ``number`` of ``group`` as the ABI starts it, sharing the dispatch's buffers and the group's LDS."""
    machine = Machine(function, module, {}, cbuffers, 4)
    machine.buffers, machine.lds = state.buffers, lds
    machine.record_store = state.record_store
    x_size, y_size, z_size = module.function.numthreads
    wave = function.wave_size
    flat = number * wave + np.arange(wave)
    machine.exec = flat < x_size * y_size * z_size
    axes = 3 if z_size > 1 else 2 if y_size > 1 else 1
    ids = (flat % x_size, flat // x_size % y_size, flat // (x_size * y_size))
    for axis in range(axes):
        machine.v[axis] = ids[axis]
    for axis in range(3):
        machine.s[2 + axis] = group[axis]
    return machine


def _run_wave(wave: Wave, labels: dict, state: DispatchState, max_steps: int) -> None:
    """Run one wave until it reaches ``s_barrier`` (``wave.barrier``) or ends (``wave.ended``)."""
    machine = wave.machine
    blocks = machine.function.blocks
    steps = 0
    while wave.block < len(blocks):
        block = blocks[wave.block]
        if wave.position >= len(block.insts):
            wave.block, wave.position = wave.block + 1, 0
            continue
        inst = block.insts[wave.position]
        wave.position += 1
        if inst.is_marker:
            continue
        steps += 1
        if steps > max_steps:
            raise SimulationError(f"wave {wave.number}: the listing runs away (over {max_steps} instructions "
                                  f"without a barrier), at {state.where(inst)}")
        state.steps += 1
        state.executed[inst.mnemonic] = state.executed.get(inst.mnemonic, 0) + 1
        wave.outstanding.check(inst, state.where)
        if inst.mnemonic == "s_endpgm":
            break
        if inst.mnemonic == "s_barrier":
            wave.barrier = inst
            return
        if inst.mnemonic == "s_waitcnt":
            wave.outstanding.wait(inst)
            continue
        if inst.mnemonic.startswith(("s_branch", "s_cbranch")):
            target = machine.branch(inst)
            if target is not None:
                wave.block, wave.position = labels[target], 0
            continue
        _check_operands(inst, state)
        _execute(machine, inst, state)
        wave.outstanding.issue(inst)
    wave.ended = True


def _check_operands(inst: MInst, state: DispatchState) -> None:
    """Operands in register files RDNA2 has no encoding for: vector memory moves data between memory
    and VGPRs only; ``v_cndmask_b32`` reads its lane mask from VCC or SGPRs, never from a VGPR."""
    if inst.mnemonic == "v_cndmask_b32" and len(inst.uses) == 3 and getattr(inst.uses[2], "cls", "s") == "v":
        raise SimulationError(f"{state.where(inst)}: '{inst.format()}': the lane mask must be VCC or SGPRs, "
                              f"not {inst.uses[2].format()}")
    if not inst.mnemonic.startswith(_VECTOR_MEMORY):
        return
    stores = "store" in inst.mnemonic or "atomic" in inst.mnemonic
    for operand in inst.defs + (inst.uses[:1] if stores else []):
        if getattr(operand, "cls", "v") != "v":
            raise SimulationError(f"{state.where(inst)}: '{inst.format()}': vector memory data must be VGPRs, "
                                  f"not {operand.format()}")


def _execute(machine: Machine, inst: MInst, state: DispatchState) -> None:
    """One instruction; an image store also records, per byte it changed, that it wrote it last."""
    if not inst.mnemonic.startswith(_IMAGE_STORES) or not state.writers:
        _run_one(machine, inst, state)
        return
    before = {name: state.arrays[name].reshape(-1).view(np.uint8).copy() for name in state.writers}
    _run_one(machine, inst, state)
    for name, old in before.items():
        changed = state.arrays[name].reshape(-1).view(np.uint8) != old
        if changed.any():
            state.writers[name][changed] = state.store_number(inst)


def _run_one(machine: Machine, inst: MInst, state: DispatchState) -> None:
    """``machine.execute``, with what the per-instruction models do not cover (a format, a texture
    layout, an address outside the LDS) reported as a SimulationError at the instruction."""
    try:
        machine.execute(inst)
    except (KeyError, IndexError, ValueError, TypeError) as failure:
        raise SimulationError(f"{state.where(inst)}: cannot simulate '{inst.format()}' "
                              f"({type(failure).__name__}: {failure})") from failure


def _copy(resource):
    """Arrays (and lists of them: mips, array elements) are copied; a sampler's state is shared."""
    if isinstance(resource, list):
        return [_copy(item) for item in resource]
    return np.array(resource, copy=True) if isinstance(resource, np.ndarray) else resource

