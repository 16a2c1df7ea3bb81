"""Where a branch in structured control flow sends its lanes.

Both executors of the IR (the NumPy interpreter and the host JIT) run structured
flow the way the hardware does: a branch out of the current block parks the
lanes that take it at the innermost construct that will pick them up again.
This is the one place that decides which construct and how.
"""

from __future__ import annotations

from typing import Protocol, Sequence

from .core import Block, Function


class Construct(Protocol):
    kind: str  # "loop", "if" or "switch"
    header: Block
    merge: Block
    cont: Block | None
    cases: Sequence[Block]


def classify(frames: Sequence[Construct], target: Block) -> tuple[Construct, str] | None:
    """The innermost open construct a branch to ``target`` parks lanes at, and how:

    ``back`` (a loop's header: the next iteration), ``continues`` (a loop's continue
    block), ``arrived`` (a construct's merge), ``pending`` (a later case of a switch).
    None when no open construct claims the target (an ordinary edge).
    """
    for frame in reversed(frames):
        if frame.kind == "loop":
            if target is frame.header:
                return frame, "back"
            if target is frame.cont:
                return frame, "continues"
            if target is frame.merge:
                return frame, "arrived"
        else:
            if target is frame.merge:
                return frame, "arrived"
            if target in frame.cases:
                return frame, "pending"
    return None


def nesting_depth(function: Function) -> int:
    """How many constructs are open at once at the deepest point of ``function``.

    Regions are laid out contiguously (a construct's blocks lie between its header and
    its merge), so one walk in layout order with a stack of pending merges finds it."""
    pending: list[Block] = []
    deepest = 0
    for block in function.blocks:
        while pending and pending[-1] is block:
            pending.pop()
        if block.kind is not None and block.merge is not None:
            pending.append(block.merge)
            deepest = max(deepest, len(pending))
    return deepest

