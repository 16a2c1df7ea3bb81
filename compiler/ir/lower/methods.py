"""Methods of user structs: the object a call runs on, and writing it back.

A non-static method is inlined like a function (``Lowerer.inline_call``) whose first
parameter is its object, ``this`` (frontend/methods.py):

- ``obj.f(args)``: ``obj`` is evaluated first. When the method writes its object (an
  assignment, ``++``, an out argument, or a call of another method that writes it, at any
  depth) and ``obj`` can be written, ``obj`` is a place: loaded before the call, stored after
  it, like an ``inout`` argument. Otherwise the object is a copy: on a constant buffer value
  or a read-only resource element the method's writes are dropped, as in DXC, which does not
  treat a constant buffer's values as ``const`` objects (on a ``const`` one sema accepts only
  ``const`` methods, which write nothing).
- ``f(args)``, ``this.f(args)``, ``Base::f(args)`` inside a method: the object is the
  calling method's own ``this``, which is a variable of the inlined caller.
- A method of a base called on a derived object gets the base part (the derived struct's
  first fields), and writes back only those fields.
- Static methods have no object: ``S::f(x)`` and ``obj.f(x)`` are plain calls.
"""

from __future__ import annotations

from ...diagnostics import Coord
from ...frontend import ast
from ...frontend import hlsl_types as T
from ...frontend.lvalues import lvalue_problem
from .places import Place
from .values import ir_type


class MethodLowering:
    """Mixin (before ``ResourceLowering``, whose ``visit_MethodCall`` handles resource methods)."""

    def visit_MethodCall(self, node: ast.MethodCall):
        method = node.decl
        if not isinstance(method, ast.FuncDecl):
            return super().visit_MethodCall(node)
        if method.this_param is None:  # obj.f(x) of a static method: obj is only its type
            return self.inline_call(node, method)
        return self.inline_call(node, method, self.receiver(node.obj, method))

    def receiver(self, obj, method: ast.FuncDecl) -> tuple:
        """The object of ``obj.f(...)``: its value, and the place to write it back to (or None)."""
        if lvalue_problem(obj) is None and self.writes_object(method):
            place = self.place(obj)
            return self.load(place, obj.coord), place
        return self.expr(obj), None

    def implicit_receiver(self, coord: Coord) -> tuple:
        """The object of a method called inside another without one: the caller's ``this``."""
        this = self.frame.func.this_param
        place = Place(self.variable(this, coord), ir_type(this.type, coord))
        return self.load(place, coord), place

    def write_back(self, place: Place, value, coord: Coord) -> None:
        """Store an out value; a base struct's value into a derived place writes its fields only."""
        target = place.result_type
        if isinstance(target, T.StructType) and isinstance(value.type, T.StructType) and target != value.type:
            for index in range(len(value.type.fields)):
                field = self.add_step(place, "member", index, coord)
                self.store(field, self.extract(value, index, coord), coord)
            return
        self.store(place, self.convert(value, target, coord), coord)

    def writes_object(self, method: ast.FuncDecl) -> bool:
        known = self.object_writers  # method -> whether it writes its object, set up by the Lowerer
        if method not in known:
            known[method] = False  # no recursion in HLSL; this only guards the walk
            known[method] = self._writes_object(method)
        return known[method]

    def _writes_object(self, method: ast.FuncDecl) -> bool:
        this = method.this_param
        stack = [method.body] if method.body is not None else []
        while stack:
            node = stack.pop()
            if any(_names_object(target, this) for target in _written(node)):
                return True
            callee = getattr(node, "decl", None)
            if isinstance(callee, ast.FuncDecl) and callee.this_param is not None:
                on_this = isinstance(node, ast.Call) or _names_object(node.obj, this)
                if on_this and self.writes_object(callee):
                    return True
            stack.extend(node.children())
        return False


def _written(node) -> list:
    """What ``node`` itself writes: an assignment's target, ``++``/``--``'s operand, out arguments."""
    if isinstance(node, ast.Assign):
        return [node.target]
    if isinstance(node, ast.Unary) and node.op in ("++", "--"):
        return [node.operand]
    if isinstance(node, (ast.Call, ast.MethodCall)):
        decl = node.decl
        if isinstance(decl, ast.FuncDecl):
            outs = [index for index, param in enumerate(decl.params) if param.direction != "in"]
        else:
            outs = list(getattr(decl, "out_params", None) or [])
        return [node.args[index] for index in outs if index < len(node.args)]
    return []


def _names_object(expr, this) -> bool:
    """``expr`` is (part of) the object ``this``: ``this``, ``this.x[i]``, or a member ``x``."""
    while isinstance(expr, (ast.Index, ast.Member)):
        expr = expr.obj
    decl = getattr(expr, "decl", None) if isinstance(expr, ast.Identifier) else None
    return decl is this or (isinstance(decl, ast.FieldRef) and decl.this_param is this)
