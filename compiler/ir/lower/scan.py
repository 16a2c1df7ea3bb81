"""What lowering needs to know before it starts, read off the checked AST.

- ``ProgramScan``: the functions reachable from the entry, the globals they use,
  the locals and parameters indexed with a non-constant (``constant_int`` in
  lower/constants.py; inside a loop that unrolls, its counter is a constant, so
  the scan walks such a body once per counter value, as lowering will), static
  locals, and the entry parameters the code reads.
- ``SideEffects``: whether evaluating an expression does more than compute a value
  (assignments, calls of functions that write anything but their own locals,
  memory writes, atomics, barriers, and wave ops, whose results depend on which
  lanes run them). ``&&``, ``||`` and ``?:`` short-circuit only around such code.
  It also says which statements hold a ``return`` (``contains_return``) and which
  return on every path (``always_returns``). Every answer is remembered per node:
  lowering asks about each level of nested code, and a subtree is walked once, not
  once per enclosing node.
"""

from __future__ import annotations

from ...frontend import ast
from ...frontend import hlsl_types as T
from ...frontend.sema import Program
from .constants import constant_int, root_decl
from .unroll import Unroller

SIDE_EFFECT_GROUPS = {"atomic", "barrier", "wave", "quad"}
GLOBAL_STORAGE = {"groupshared", "resource", "cbuffer", "uniform", "static"}


class ProgramScan(ast.NodeVisitor):
    """What lowering must know before it starts, from the code reachable from the entry."""

    def __init__(self, program: Program):
        self.functions: list[ast.FuncDecl] = []
        self.used: set = set()
        self.scratch: set = set()  # local arrays (and parameters) indexed with a non-constant
        self.static_locals: list[ast.VarDecl] = []
        self.params: set = set()  # entry parameters the code reads
        self.entry_params = set(program.entry.params)
        self.unroller = Unroller()
        self.env: dict = {}  # counters of the unrolled loops around the code being scanned
        self.walk_function(program.entry)
        statics = [decl for decl in program.globals if decl.storage == "static"]
        scanned: set = set()
        while True:  # static initialisers may use other globals and call functions
            todo = [decl for decl in statics if decl in self.used and decl not in scanned]
            if not todo:
                break
            for decl in todo:
                scanned.add(decl)
                if decl.init is not None:
                    self.visit(decl.init)
        self.statics = [decl for decl in statics if decl in self.used] + self.static_locals

    def walk_function(self, func: ast.FuncDecl) -> None:
        self.functions.append(func)
        if func.body is not None:
            self.visit(func.body)

    def visit_Identifier(self, node: ast.Identifier) -> None:
        decl = node.decl
        if isinstance(decl, ast.VarDecl) and decl.storage in GLOBAL_STORAGE:
            self.used.add(decl)
        elif decl in self.entry_params:
            self.params.add(decl)

    def visit_Call(self, node) -> None:
        self.generic_visit(node)
        func = node.decl
        if isinstance(func, ast.FuncDecl):
            given = len(node.args) if isinstance(node, (ast.Call, ast.MethodCall)) else len(func.params)
            for param in func.params[given:]:
                if param.default is not None:
                    self.visit(param.default)
            if func not in self.functions:
                self.walk_function(func)

    # a user struct's method is reached like a function, and so is an operator it overloads
    visit_MethodCall = visit_Binary = visit_Unary = visit_Call

    def visit_For(self, node: ast.For) -> None:
        plan = self.unroller.plan(node, self.env)
        if plan is None:
            self.generic_visit(node)
            return
        for part in (node.init, node.cond, node.step):
            if part is not None:
                self.visit(part)
        outer = self.env
        for value in plan.values:
            self.env = {**outer, plan.counter: value}
            self.visit(node.body)
        self.env = outer

    def visit_Index(self, node: ast.Index) -> None:
        if node.decl is not None:  # a struct's operator[]
            self.visit_Call(node)
            return
        self.generic_visit(node)
        if isinstance(node.obj.type, T.ArrayType) and constant_int(node.index, self.env) is None:
            decl = root_decl(node.obj)
            if isinstance(decl, ast.Param) or (isinstance(decl, ast.VarDecl) and decl.storage in ("local", "static")):
                self.scratch.add(decl)

    def visit_VarDecl(self, node: ast.VarDecl) -> None:
        self.generic_visit(node)
        if node.storage == "static" and node not in self.static_locals:
            self.static_locals.append(node)
            self.used.add(node)


# ---------------------------------------------------------------- side effects
class SideEffects:
    def __init__(self) -> None:
        self.pure: dict[ast.FuncDecl, bool] = {}
        # (question, id(node)) -> (node, answer); holding the node keeps its id unique
        self.known: dict[tuple[str, int], tuple[ast.Node, bool]] = {}

    def _remembered(self, question: str, node, compute) -> bool:
        key = (question, id(node))
        known = self.known.get(key)
        if known is None:
            known = self.known[key] = (node, compute(node))
        return known[1]

    def _any_below(self, question: str, node, holds, children) -> bool:
        """Whether ``holds`` is true of ``node`` or of anything below it, remembered for
        every node visited (one iterative post-order walk: expressions nest deeply)."""
        stack = [(node, False)]
        while stack:
            current, expanded = stack.pop()
            key = (question, id(current))
            if expanded:
                below = children(current)
                self.known[key] = (current, any(self.known[(question, id(child))][1] for child in below))
            elif key not in self.known:
                if holds(current):
                    self.known[key] = (current, True)
                else:
                    stack.append((current, True))
                    stack.extend((child, False) for child in children(current))
        return self.known[(question, id(node))][1]

    def has_side_effects(self, node) -> bool:
        """Whether evaluating ``node`` does more than compute a value (for && || ?:)."""
        return self._any_below("effects", node, self._has_side_effect_itself, lambda n: n.children())

    def contains_return(self, node) -> bool:
        """Whether a statement holds a ``return`` anywhere inside it."""
        return self._any_below("contains", node, lambda n: isinstance(n, ast.Return), statement_children)

    def always_returns(self, node) -> bool:
        """Whether a statement returns on every path through it (``None``: no statement)."""
        if node is None:
            return False
        return self._remembered("always", node, self._always_returns)

    def _always_returns(self, node) -> bool:
        if isinstance(node, ast.Return):
            return True
        if isinstance(node, ast.Compound):
            return any(self.always_returns(item) for item in node.items)
        if isinstance(node, ast.If):
            return self.always_returns(node.then) and self.always_returns(node.otherwise)
        return False

    def _has_side_effect_itself(self, node) -> bool:
        """The node's own effect, its operands aside."""
        if isinstance(node, ast.Assign) or (isinstance(node, ast.Unary) and node.op in ("++", "--")):
            return True
        if isinstance(node, ast.Call):
            if isinstance(node.decl, ast.FuncDecl):
                if not self.is_pure(node.decl):
                    return True
            elif node.decl is None or node.decl.group in SIDE_EFFECT_GROUPS or node.decl.out_params:
                return True
        if isinstance(node, (ast.MethodCall, ast.Binary, ast.Unary, ast.Index)) \
                and isinstance(node.decl, ast.FuncDecl):
            return not self.is_pure(node.decl)  # a user struct's method or operator
        if isinstance(node, ast.MethodCall):
            resolution = node.decl
            if resolution is None or resolution.writes_resource or resolution.out_params \
                    or resolution.group in SIDE_EFFECT_GROUPS:
                return True
        return False

    def is_pure(self, func: ast.FuncDecl) -> bool:
        """No out parameters and nothing written but its own locals; no wave ops or barriers."""
        if func not in self.pure:
            self.pure[func] = False  # no recursion in HLSL; this only guards the walk
            own = set(func.params)
            self.pure[func] = all(p.direction == "in" for p in func.params) and func.body is not None \
                and self._pure_node(func.body, own)
        return self.pure[func]

    def _pure_node(self, node, own: set) -> bool:
        if isinstance(node, ast.VarDecl):
            own.add(node)
            if node.storage == "static":
                return False
        targets = []
        if isinstance(node, ast.Assign):
            targets.append(node.target)
        elif isinstance(node, ast.Unary) and node.op in ("++", "--"):
            targets.append(node.operand)
        elif isinstance(node, ast.Call):
            decl = node.decl
            if isinstance(decl, ast.FuncDecl):
                if not self.is_pure(decl):
                    return False
            elif decl is None or decl.group in SIDE_EFFECT_GROUPS:
                return False
            else:
                targets.extend(node.args[i] for i in decl.out_params)
        elif isinstance(node, (ast.MethodCall, ast.Binary, ast.Unary, ast.Index)) \
                and isinstance(node.decl, ast.FuncDecl):
            if not self.is_pure(node.decl):  # a user struct's method or operator
                return False
        elif isinstance(node, ast.MethodCall):
            decl = node.decl
            if decl is None or decl.writes_resource or decl.out_params or decl.group in SIDE_EFFECT_GROUPS:
                return False
        for target in targets:
            if root_decl(target) not in own or _writes_resource(target):
                return False
        return all(self._pure_node(child, own) for child in node.children())


def statement_children(node) -> list:
    """The statements directly inside a statement (expressions hold none)."""
    if isinstance(node, ast.Compound):
        return node.items
    if isinstance(node, ast.If):
        return [node.then] + ([node.otherwise] if node.otherwise is not None else [])
    if isinstance(node, (ast.For, ast.While, ast.DoWhile)):
        return [node.body]
    if isinstance(node, ast.Switch):
        return [item for case in node.cases for item in case.body]
    return []


def _writes_resource(target) -> bool:
    while isinstance(target, (ast.Index, ast.Member)):
        if isinstance(target.obj.type, T.ResourceType):
            return True
        target = target.obj
    return False
