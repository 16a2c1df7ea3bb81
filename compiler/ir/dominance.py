"""Dominators and post-dominators of a function's blocks (iterative data-flow).

Kernels are small (a few hundred blocks at most), so the simple set-based
algorithm is fast enough and obviously right.
"""

from __future__ import annotations

from .core import Block, Function


def dominators(function: Function) -> dict[Block, set[Block]]:
    """Each reachable block's dominators (iterative data-flow; functions are small)."""
    blocks = reachable(function)
    preds = function.predecessors()
    entry = function.entry
    dom = {block: set(blocks) for block in blocks}
    dom[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for block in blocks:
            if block is entry:
                continue
            incoming = [dom[p] for p in preds.get(block, []) if p in dom]
            new = set.intersection(*incoming) if incoming else set()
            new = new | {block}
            if new != dom[block]:
                dom[block] = new
                changed = True
    return dom


def reachable(function: Function) -> list[Block]:
    seen: list[Block] = []
    stack = [function.entry]
    visited = set()
    while stack:
        block = stack.pop()
        if block in visited:
            continue
        visited.add(block)
        seen.append(block)
        stack.extend(reversed(block.successors))
    order = {block: i for i, block in enumerate(function.blocks)}
    return sorted(seen, key=lambda b: order.get(b, len(order)))



def postdominators(function: Function) -> dict[Block, set[Block]]:
    """Each block's post-dominators, with every block that ends in ``ret`` as an exit.

    Blocks from which no exit can be reached (a loop that never ends) get the empty
    set: nothing is known to follow them.
    """
    blocks = reachable(function)
    exits = [block for block in blocks if not block.successors]
    post = {block: set(blocks) for block in blocks}
    for block in exits:
        post[block] = {block}
    changed = True
    while changed:
        changed = False
        for block in reversed(blocks):
            if block in exits:
                continue
            following = [post[s] for s in block.successors if s in post]
            new = (set.intersection(*following) if following else set()) | {block}
            if new != post[block]:
                post[block] = new
                changed = True
    reaches_exit = {block for block in blocks if post[block] & set(exits)}
    return {block: (post[block] if block in reaches_exit else set()) for block in blocks}


def control_dependences(function: Function) -> dict[Block, set[Block]]:
    """For each block, the branching blocks whose decision says whether it runs.

    A block B depends on a branch at H when B post-dominates one successor of H but
    does not strictly post-dominate H (Ferrante, Ottenstein and Warren's definition).
    Where no exit can be reached (an endless loop) every block the branch leads to
    depends on it.
    """
    post = postdominators(function)
    depends: dict[Block, set[Block]] = {block: set() for block in post}
    for header in post:
        if len(header.successors) < 2:
            continue
        after_header = post[header] - {header}
        for successor in header.successors:
            if successor not in post:
                continue
            followers = post[successor] if post[successor] else _reachable_from(successor)
            for block in followers:
                if block not in after_header:
                    depends[block].add(header)
    return depends


def _reachable_from(start: Block) -> set[Block]:
    seen: set[Block] = set()
    stack = [start]
    while stack:
        block = stack.pop()
        if block not in seen:
            seen.add(block)
            stack.extend(block.successors)
    return seen
