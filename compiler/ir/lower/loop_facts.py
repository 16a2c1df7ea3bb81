"""What the unrolling rule asks about a loop's body, answered from one walk.

The rule (lower/unroll.py) asks, for every ``for`` loop: does the body return, or
break or continue this loop; does it write the counter; does it index a local array
with an index that mentions the counter. Asking each loop by walking its body walks
the code of nested loops once per enclosing loop (quadratic in the depth). Instead
one depth-first walk of the outermost loop numbers every node in preorder with the
end of its subtree, and records

- the positions of ``return`` statements, and the loops that a ``break`` or
  ``continue`` leaves (a ``break`` leaves the innermost loop or switch, a
  ``continue`` the innermost loop);
- for each declaration, the positions of the nodes that write it (assignments,
  ``++``/``--``, out arguments);
- for each declaration, the positions of the local-array ``Index`` nodes whose index
  mentions it: for each identifier, the innermost such ``Index`` whose index holds
  it (an outer one holds the inner one, so it is inside any subtree the outer is).

A question about a subtree is then a search in a sorted list or a range test.
"""

from __future__ import annotations

from bisect import bisect_left

from ...frontend import ast
from ...frontend import hlsl_types as T
from .constants import root_decl

LOOPS = (ast.For, ast.While, ast.DoWhile)
_LEAVE = object()  # on the walk's stack: the subtree below this node is done


class LoopFacts:
    """The facts of one walked subtree (``root``, a loop); ``covers(loop)`` for the rest."""

    def __init__(self, root: ast.Node):
        self.root = root  # keeps every node alive, so their ids stay theirs
        self.enter: dict[int, int] = {}
        self.leave: dict[int, int] = {}
        self.returns: list[int] = []
        self.left_early: set[int] = set()  # ids of loops a break or continue leaves
        self.writes: dict[int, list[int]] = {}  # id(decl) -> positions of writes
        self.array_indexes: dict[int, list[int]] = {}  # id(decl) -> positions of Index nodes
        self.loops: list[ast.Node] = []
        self._walk(root)

    def _walk(self, root: ast.Node) -> None:
        clock = 0
        # (node, innermost qualifying Index holding it in its index, innermost loop, innermost loop or switch)
        stack: list = [(root, None, None, None)]
        while stack:
            node, index_at, loop, breakable = stack.pop()
            if index_at is _LEAVE:
                self.leave[id(node)] = clock
                continue
            position = clock
            clock += 1
            self.enter[id(node)] = position
            stack.append((node, _LEAVE, None, None))
            self._record(node, position, index_at, loop, breakable)
            if isinstance(node, LOOPS):
                loop = breakable = node
                self.loops.append(node)
            elif isinstance(node, ast.Switch):
                breakable = node
            qualifying = _indexes_local_array(node)
            for child in reversed(list(node.children())):
                inner = position if qualifying and child is node.index else index_at
                stack.append((child, inner, loop, breakable))

    def _record(self, node, position: int, index_at, loop, breakable) -> None:
        if isinstance(node, ast.Return):
            self.returns.append(position)
        elif isinstance(node, ast.Break) and breakable is not None:
            self.left_early.add(id(breakable))
        elif isinstance(node, ast.Continue) and loop is not None:
            self.left_early.add(id(loop))
        elif isinstance(node, ast.Identifier) and index_at is not None and node.decl is not None:
            self.array_indexes.setdefault(id(node.decl), []).append(index_at)
        for target in _written(node):
            decl = root_decl(target)
            if decl is not None:
                self.writes.setdefault(id(decl), []).append(position)

    # ------------------------------------------------------------ questions
    def _inside(self, positions: list[int], node) -> bool:
        """Whether a sorted list holds a position inside ``node``'s subtree."""
        start, end = self.enter[id(node)], self.leave[id(node)]
        at = bisect_left(positions, start)
        return at < len(positions) and positions[at] < end

    def leaves_early(self, loop) -> bool:
        """A return in the body, or a break/continue of this loop."""
        return id(loop) in self.left_early or self._inside(self.returns, loop.body)

    def writes_in(self, node, decl) -> bool:
        """Whether anything in ``node`` assigns ``decl`` or passes it as an out argument."""
        return self._inside(self.writes.get(id(decl), []), node)

    def indexes_arrays_with(self, node, decl) -> bool:
        """Whether ``node`` indexes a local, parameter or static array (or a matrix) with
        an index that mentions ``decl``."""
        start, end = self.enter[id(node)], self.leave[id(node)]
        return any(start <= at < end for at in self.array_indexes.get(id(decl), []))


def _indexes_local_array(node) -> bool:
    if not isinstance(node, ast.Index) or not isinstance(node.obj.type, (T.ArrayType, T.MatrixType)):
        return False
    decl = root_decl(node.obj)
    return isinstance(decl, ast.Param) or (isinstance(decl, ast.VarDecl) and decl.storage in ("local", "static"))


def _written(node) -> list:
    """The expressions ``node`` writes: an assignment's target, ``++``/``--``'s operand,
    a call's out arguments."""
    if isinstance(node, ast.Assign):
        return [node.target]
    if isinstance(node, ast.Unary) and node.op in ("++", "--"):
        return [node.operand]
    if isinstance(node, (ast.Call, ast.MethodCall)):
        return [node.args[index] for index in _out_positions(node) if index < len(node.args)]
    return []


def _out_positions(node) -> list[int]:
    decl = node.decl
    if isinstance(decl, ast.FuncDecl):
        return [index for index, param in enumerate(decl.params) if param.direction != "in"]
    return list(getattr(decl, "out_params", None) or [])
