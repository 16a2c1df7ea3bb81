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


class ConstructRegions:
    """Every construct's region as a bit mask over ``function.blocks`` (bit ``i`` for block ``i``).

    A construct's region is what ``passes.uniformity.region`` walks: the blocks reachable
    from its header's successors without passing its merge or its header. Regions nest,
    so they are found innermost first (headers in reverse layout order) and a walk that
    reaches an inner header takes that header's region whole and goes on from its merge;
    a region is closed under successors but for its merge and header, so nothing is
    missed. (An inner region that holds the outer header or merge, through a break and an
    outer loop, is walked block by block instead.) A long else-if chain costs a mask union
    per link instead of a walk over every later link.
    """

    def __init__(self, function: Function):
        self.blocks = list(function.blocks)
        self.bit = {block: 1 << index for index, block in enumerate(self.blocks)}
        self.masks: dict[Block, int] = {}
        for header in reversed(self.blocks):
            if header.kind is not None and header.merge is not None:
                self.masks[header] = self._walk(header)

    def _walk(self, header: Block) -> int:
        merge = header.merge
        stop = self.bit.get(merge, 0) | self.bit[header]
        seen = 0
        stack = list(header.successors)
        while stack:
            block = stack.pop()
            bit = self.bit[block]
            if block is merge or block is header or seen & bit:
                continue
            seen |= bit
            inner = self.masks.get(block)
            if inner is not None and not inner & stop:
                seen |= inner
                stack.append(block.merge)
                continue
            stack.extend(block.successors)
        return seen

    def mask(self, header: Block) -> int:
        return self.masks[header]

    def contains(self, header: Block, block: Block) -> bool:
        return bool(self.masks[header] & self.bit[block])

    def members(self, header: Block) -> set[Block]:
        """The region as a set (proportional to its size: for loops and single constructs)."""
        mask = self.masks[header]
        return {block for block in self.blocks if mask & self.bit[block]}

