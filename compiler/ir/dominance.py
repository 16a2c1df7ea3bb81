"""Dominator and post-dominator trees of a function's blocks, and control dependence.

Immediate dominators come from Cooper, Harvey and Kennedy's "A Simple, Fast
Dominance Algorithm" (2001): number the blocks in reverse postorder, then sweep
them in that order setting each block's immediate dominator to the intersection of
its processed predecessors' ones, where intersecting walks the two candidates up
the tree by postorder number until they meet; repeat until nothing changes (two
sweeps for code without irreducible loops). Post-dominators are the same
algorithm on the reversed CFG, with one virtual exit after every block that ends
in ``ret``. A depth-first walk of each tree numbers it in preorder with the end of
each subtree, so ``dominates(a, b)`` is two comparisons.

Nothing here materialises a block's full set of (post-)dominators: callers ask
``dominates`` or walk ``idom`` up the tree, and everything stays linear in the
size of the CFG (times the few sweeps).
"""

from __future__ import annotations

from .core import Block, Function


class DominatorTree:
    """Immediate dominators of the blocks reachable from ``roots`` over ``edges``
    (successors for dominators, predecessors for post-dominators), plus interval
    numbers for constant-time ``dominates`` queries.

    A ``None`` root stands for a virtual node above several real roots (the virtual
    exit of post-dominance); it is nobody's answer to ``idom``: a block whose
    immediate (post-)dominator is the virtual node has ``idom`` None.
    """

    def __init__(self, roots: list[Block], edges, back_edges):
        order = _postorder(roots, edges)  # blocks in postorder, the roots' subtrees one after another
        number = {block: index for index, block in enumerate(order)}
        virtual = len(order)  # the virtual node above the roots: the last in postorder
        root_set = set(roots)
        parent: dict[Block, int | None] = {block: None for block in order}  # None: not processed yet
        for root in roots:
            parent[root] = virtual
        changed = True
        while changed:
            changed = False
            for block in reversed(order):
                if block in root_set:
                    continue
                new = None
                for pred in back_edges(block):
                    if pred not in number or parent.get(pred) is None:
                        continue  # outside the walk, or not processed yet
                    new = number[pred] if new is None else _intersect(number[pred], new, parent, order)
                if new is not None and parent[block] != new:
                    parent[block] = new
                    changed = True
        self.order = order
        self.idom: dict[Block, Block | None] = {
            block: (None if parent[block] == virtual else order[parent[block]]) for block in order}
        self.children: dict[Block | None, list[Block]] = {}
        for block in reversed(order):
            self.children.setdefault(self.idom[block], []).append(block)
        self._number_intervals()

    def _number_intervals(self) -> None:
        self.enter: dict[Block, int] = {}
        self.leave: dict[Block, int] = {}
        clock = 0
        stack: list[tuple[Block | None, bool]] = [(None, False)]
        while stack:
            block, done = stack.pop()
            if done:
                self.leave[block] = clock
                continue
            if block is not None:
                self.enter[block] = clock
                clock += 1
                stack.append((block, True))
            for child in reversed(self.children.get(block, [])):
                stack.append((child, False))

    def __contains__(self, block: Block) -> bool:
        return block in self.enter

    def dominates(self, a: Block, b: Block) -> bool:
        """Whether ``a`` (post-)dominates ``b``; every block dominates itself. False if
        either is outside the tree."""
        if a not in self.enter or b not in self.enter:
            return False
        return self.enter[a] <= self.enter[b] < self.leave[a]

    def strictly_dominates(self, a: Block, b: Block) -> bool:
        return a is not b and self.dominates(a, b)


def _intersect(left: int, right: int, parent: dict, order: list[Block]) -> int:
    """The nearest common ancestor of two processed blocks, by postorder number."""
    while left != right:
        while left < right:
            left = parent[order[left]]
        while right < left:
            right = parent[order[right]]
    return left


def _postorder(roots: list[Block], edges) -> list[Block]:
    """Blocks reachable from ``roots`` in depth-first postorder (iterative: kernels can
    be long), successors visited in their order."""
    seen: set[Block] = set()
    order: list[Block] = []
    for root in roots:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(edges(root)))]
        while stack:
            block, pending = stack[-1]
            for following in pending:
                if following not in seen:
                    seen.add(following)
                    stack.append((following, iter(edges(following))))
                    break
            else:
                stack.pop()
                order.append(block)
    return order


def dominators(function: Function) -> DominatorTree:
    """The dominator tree of the blocks reachable from the entry."""
    preds = function.predecessors()
    return DominatorTree([function.entry], lambda block: block.successors, lambda block: preds.get(block, []))


def postdominators(function: Function) -> DominatorTree:
    """The post-dominator tree, with every reachable block that ends in ``ret`` (no
    successors) under one virtual exit. Blocks from which no exit can be reached (a
    loop that never ends) are not in it."""
    blocks = reachable(function)
    members = set(blocks)
    exits = [block for block in blocks if not block.successors]
    preds = function.predecessors()
    return DominatorTree(exits, lambda block: [p for p in preds.get(block, []) if p in members],
                         lambda block: block.successors)


def reachable(function: Function) -> list[Block]:
    """The blocks reachable from the entry, in the function's order."""
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


def control_dependences(function: Function) -> dict[Block, set[Block]]:
    """For each reachable block, the branching blocks whose decision says whether it runs.

    A block B depends on a branch at H when B post-dominates one successor S of H
    but does not strictly post-dominate H (Ferrante, Ottenstein and Warren's
    definition): B is on the post-dominator tree path from S up to, not including,
    H's immediate post-dominator. Two cases keep the rule this module has always
    applied where post-dominance says nothing useful:

    - a block that reaches more than one ``ret`` block, and no single one on every
      path (hand-written IR; lowering makes one), counts as post-dominated by
      nothing, and everything reachable from it follows it;
    - a block that never reaches an exit (an endless loop) counts as post-dominated
      by every block: a branch into such a loop controls every block but its own
      strict post-dominators, and a branch inside it controls only itself.
    """
    blocks = reachable(function)
    tree = postdominators(function)
    depends: dict[Block, set[Block]] = {block: set() for block in blocks}
    single_exit = _single_exit_blocks(tree)

    any_exit = any(not block.successors for block in blocks)

    def strictly_after(header: Block):
        """Membership in the header's strict post-dominators, as this rule sees them."""
        if header not in tree and any_exit:
            return lambda block: block is not header  # an endless loop: every block
        if header not in single_exit:
            return lambda block: False
        return lambda block: tree.strictly_dominates(block, header)

    for header in blocks:
        if len(header.successors) < 2:
            continue
        after = strictly_after(header)
        for successor in header.successors:
            if successor not in tree and any_exit:
                followers = blocks  # post-dominated by every block
            elif successor in single_exit:
                followers = _chain_until(tree, successor, after)
            else:
                followers = _reachable_from(successor)
            for block in followers:
                if not after(block):
                    depends[block].add(header)
    return depends


def _single_exit_blocks(tree: DominatorTree) -> set[Block]:
    """Blocks post-dominated by one real exit: those under a ``ret`` block in the tree."""
    single: set[Block] = set()
    stack = [block for block in tree.children.get(None, []) if not block.successors]
    while stack:
        block = stack.pop()
        single.add(block)
        stack.extend(tree.children.get(block, []))
    return single


def _chain_until(tree: DominatorTree, start: Block, stop) -> list[Block]:
    """``start`` and its post-dominators up the tree, until the first one ``stop`` accepts
    (everything above it is accepted too: the strict post-dominators of a block form
    the top of each of its successors' chains)."""
    chain = []
    block: Block | None = start
    while block is not None and not stop(block):
        chain.append(block)
        block = tree.idom[block]
    return chain


def _reachable_from(start: Block) -> set[Block]:
    seen: set[Block] = set()
    stack = [start]
    while stack:
        block = stack.pop()
        if block not in seen:
            seen.add(block)
            stack.extend(block.successors)
    return seen
