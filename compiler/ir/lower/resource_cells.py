"""Local resources: which global resource each local resource value names.

A local resource (a variable, an element of a local array of resources, a struct member
of resource type, a parameter or a function's result) is not a run-time value: as in DXC,
every use must resolve, at compile time, to one global resource or one element of a
global resource array. Lowering keeps, per function frame, one *cell* per resource slot:
``frame.vars[key]`` with ``key`` a tuple path from the declaration, ``(decl,)``,
``(decl, 1)`` (a constant array index) or ``(decl, "buf")`` (a struct member). A cell
holds a ``ResourceRef`` or ``Unresolved``. A struct holding resources keeps its data
members in its ordinary variable; its resource members are only cells (in the IR type
they are a ``uint`` placeholder that nothing reads).

- Assignment ``t = b`` replaces the cell; arrays and structs copy every cell under them.
- After an ``if``, a cell both arms leave equal stays; one they leave different becomes
  ``Unresolved`` (unless the condition is a constant: then the taken arm decides).
- Unrolled loops lower their body once per iteration, so the counter is a constant there
  (``arr[k]`` resolves). A loop left a loop, and a ``switch``, make every cell assigned
  inside them ``Unresolved`` from their start; after them a cell is kept only if it ends
  as it began.
- Using an ``Unresolved`` cell, an unassigned one, or indexing a local resource array
  with a run-time index, is DXC's error: "local resource not guaranteed to map to unique
  global resource", at the use.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...diagnostics import Coord
from ...diagnostics import Unsupported as Refused
from ...frontend import ast
from ...frontend import hlsl_types as T
from ...frontend.resource_values import holds_resource
from ..ops import Op
from .places import ResourceRef
from .values import Unsupported

NOT_UNIQUE = "local resource not guaranteed to map to unique global resource"
RESULT = "<result>"  # the cells of a function's resource-holding result: (RESULT, ...)


class NotUnique(Unsupported):
    """DXC's error for a use of a local resource that does not resolve to one global resource
    (an error of the program, not a gap in shc: its message has no "not supported" suffix)."""

    def __init__(self, coord: Coord):
        Refused.__init__(self, NOT_UNIQUE, coord)


def not_unique(coord: Coord) -> NotUnique:
    return NotUnique(coord)


@dataclass(frozen=True)
class Unresolved:
    """A cell whose global resource depends on a run-time value (chosen at ``coord``)."""

    coord: Coord


@dataclass
class ResourceCellsArgument:
    """A resource (or array of resources) passed to a function: its cells."""

    cells: dict


def result_cells_of(frame) -> dict:
    """The cells of the result of the function ``frame`` lowers (read as the call returns)."""
    return {key[1:]: value for key, value in frame.vars.items() if isinstance(key, tuple) and key[:1] == (RESULT,)}


def same_resource(a, b) -> bool:
    if a is b:
        return True
    return (isinstance(a, ResourceRef) and isinstance(b, ResourceRef) and a.binding is b.binding
            and a.type == b.type and a.index is b.index)


class ResourceCells:
    """Mixin for the lowerer: local resource cells, their assignment and merging."""

    # ------------------------------------------------------------ keys
    def resource_key(self, node, for_write: bool = False) -> tuple | None:
        """The cell path of a local resource expression; None for a global (or an element
        of a local copy of a whole global array, which indexes the global as usual)."""
        if isinstance(node, ast.Identifier):
            decl = node.decl
            if isinstance(decl, ast.FieldRef):  # x meaning this.x, inside a method
                return (decl.this_param, decl.name)
            if getattr(decl, "storage", None) == "resource":
                return None
            return (decl,)
        if isinstance(node, ast.Member) and isinstance(node.obj.type, T.StructType):
            base = self.resource_key(node.obj, for_write)
            return None if base is None else base + (node.name,)
        if isinstance(node, ast.Index) and isinstance(node.obj.type, T.ArrayType) and node.decl is None:
            base = self.resource_key(node.obj, for_write)
            if base is None:
                return None
            whole = self.frame.vars.get(base)
            if isinstance(whole, ResourceRef) and not for_write:
                return None
            index = self.constant_int(node.index)
            if index is None:
                raise not_unique(node.coord)
            if whole is not None:
                self.split_array(base, node.obj.type, node.coord)
            return base + (index,)
        return None

    def split_array(self, key: tuple, array: T.ArrayType, coord: Coord) -> None:
        """A cell holding a whole global array becomes one cell per element (before one is assigned)."""
        whole = self.frame.vars.pop(key)
        if isinstance(whole, Unresolved) or array.size is None:
            raise not_unique(coord)
        for index in range(array.size):
            element = self.uint_const(index, coord)
            if whole.index is not None:
                scaled = self.b.emit(Op.MUL, [whole.index, self.uint_const(array.size, coord)], T.UINT, None, coord)
                element = self.b.emit(Op.ADD, [scaled, element], T.UINT, None, coord)
            self.frame.vars[key + (index,)] = ResourceRef(whole.binding, array.element, element)

    def local_resource(self, node) -> ResourceRef | None:
        """The resource a local resource expression names (DXC's error if it is not unique);
        None when ``node`` is not a local one."""
        key = self.resource_key(node)
        if key is None:
            return None
        value = self.frame.vars.get(key)
        if not isinstance(value, ResourceRef):
            raise not_unique(node.coord)
        return value

    # ------------------------------------------------------ assignment
    def cells_of(self, node, evaluated: bool = False) -> dict:
        """The cells of a resource-holding expression, by path below it. ``evaluated``: a
        call in ``node`` was just lowered for its value; its result's cells are kept, not
        lowered (and its side effects run) again."""
        if isinstance(node, ast.Call) and node.decl is not None and not isinstance(node.decl, str) \
                and getattr(node.decl, "body", None) is not None:
            return self.last_result_cells if evaluated else self.call_result_cells(node)
        key = self.resource_key(node)
        if key is None:
            if isinstance(node.type, T.StructType):
                raise Unsupported("a struct holding resources made by this expression", node.coord)
            return {(): self.resource_ref(node)}
        return self.cells_of_key(key)

    def receiver_key(self, node, receiver, this_param) -> tuple | None:
        """The cells of a method's object when it holds resources: ``obj`` of ``obj.f()``, or
        the calling method's own object (an operator's object has none to give)."""
        if not holds_resource(this_param.type):
            return None
        if receiver is None:
            return (self.frame.func.this_param,)
        obj = getattr(node, "obj", None)
        return None if obj is None else self.resource_key(obj)

    def cells_of_key(self, key: tuple) -> dict:
        return {path: self.frame.vars[key + path] for path in self.cells_below(key)}

    def call_result_cells(self, node) -> dict:
        """Inline a call of a function returning resources; the cells of its result."""
        self.last_result_cells = {}
        self.expr(node)
        return self.last_result_cells

    def return_resources(self, value_node) -> None:
        """``return value;`` in a function returning resources: the result's cells (merged
        like any other cell where the paths of the function join)."""
        self.set_cells((RESULT,), self.cells_of(value_node))

    def set_cells(self, key: tuple, cells: dict) -> None:
        for path in [path for path in self.frame.vars if isinstance(path, tuple) and path[:len(key)] == key]:
            del self.frame.vars[path]
        for path, value in cells.items():
            self.frame.vars[key + path] = value

    def assign_resources(self, target, value_node, evaluated: bool = False) -> None:
        """``target = value`` for a resource-holding target: its cells become the value's."""
        key = self.resource_key(target, for_write=True)
        if key is None:
            raise Refused(f"cannot assign to the global resource '{getattr(target, 'name', '?')}'", target.coord)
        self.set_cells(key, self.cells_of(value_node, evaluated))

    def init_resource_list(self, decl, items: list) -> None:
        """``RWBuffer<uint> arr[2] = { a, b };``: one cell per element."""
        for index, item in enumerate(items):
            self.set_cells((decl, index), self.cells_of(item))

    # ---------------------------------------------------- control flow
    def resource_state(self) -> dict:
        return {key: value for key, value in self.frame.vars.items() if isinstance(key, tuple)}

    def restore_resources(self, state: dict) -> None:
        for key in [key for key in self.frame.vars if isinstance(key, tuple)]:
            del self.frame.vars[key]
        self.frame.vars.update(state)

    def merge_resources(self, states: list, coord: Coord) -> None:
        """Where paths join: a cell all ``states`` agree on stays, any other is Unresolved."""
        if not states:
            return
        merged = {}
        for key in set().union(*states):
            values = [state.get(key) for state in states]
            merged[key] = values[0] if all(same_resource(values[0], v) for v in values) else Unresolved(coord)
        self.restore_resources(merged)

    def assigned_resources(self, node) -> list:
        """The cells assigned anywhere inside ``node`` (statements of a loop or switch)."""
        found = []
        stack = [node]
        while stack:
            item = stack.pop()
            if isinstance(item, ast.Assign) and item.target.type is not None and holds_resource(item.target.type):
                try:
                    key = self.resource_key(item.target, for_write=True)
                except NotUnique:  # an index known only later (an inner unrolled loop): all of it
                    key = self.resource_key(_root(item.target), for_write=True)
                if key is not None:
                    found.append((key, item.coord))
            stack.extend(item.children())
        return found

    def resource_region(self, node, lower) -> None:
        """Lower a loop left a loop, or a switch (``lower()``), with the cells it assigns unresolved."""
        assigned = self.assigned_resources(node)
        if not assigned:
            lower()
            return
        before = self.resource_state()
        for key, coord in assigned:
            cells = {path: Unresolved(coord) for path in self.cells_below(key)} or {(): Unresolved(coord)}
            self.set_cells(key, cells)
        lower()
        if self.b.block is not None:
            self.merge_resources([before, self.resource_state()], node.coord)

    def cells_below(self, key: tuple) -> list:
        return [path[len(key):] for path in self.frame.vars if isinstance(path, tuple) and path[:len(key)] == key]


def _root(node):
    """The variable an access path starts from: ``arr`` for ``arr[k].buf``."""
    while isinstance(node, (ast.Index, ast.Member)):
        node = node.obj
    return node
