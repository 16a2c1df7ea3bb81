"""Which expressions may be written: assignment targets, ``++``/``--``, out arguments.

An l-value is a variable, or an element, member or swizzle of one. It is not
writable when it is (part of) a constant buffer value, a ``const`` variable, a
resource handle, an element of a read-only resource (``Texture2D``,
``StructuredBuffer``...), or a swizzle that names a component twice.

The ``Interlocked*`` functions additionally need their destination to live in
memory other threads see: a ``groupshared`` variable or an element of a UAV.
"""

from __future__ import annotations

from . import ast
from . import hlsl_types as T


class LValueRules:
    """Mixed into the expression checker (needs ``error``)."""

    def check_lvalue(self, expr, out_argument: bool = False) -> None:
        """Report ``expr`` if it cannot be assigned (or passed to an out/inout parameter)."""
        problem = lvalue_problem(expr)
        if problem is None:
            return
        if problem == "":
            if out_argument:
                self.error("an out or inout argument must be an l-value (a variable, element or member)",
                           expr.coord)
            else:
                self.error("expression is not assignable", expr.coord)
            return
        verb = "pass" if out_argument else "assign to"
        suffix = " as an out or inout argument" if out_argument else ""
        self.error(f"cannot {verb} {problem}{suffix}", expr.coord)

    def check_atomic_destination(self, dest) -> None:
        """``InterlockedAdd(dest, ...)``: ``dest`` is groupshared memory or a UAV element."""
        if lvalue_problem(dest) is not None:
            return  # already reported as an l-value error
        root = dest
        while isinstance(root, (ast.Member, ast.Index)):
            if isinstance(root, ast.Index) and isinstance(root.obj.type, T.ResourceType):
                return  # an element of an RW resource (read-only ones were reported)
            root = root.obj
        decl = getattr(root, "decl", None)
        if isinstance(decl, ast.VarDecl) and decl.storage == "groupshared":
            return
        self.error("the destination of an Interlocked operation must be groupshared memory "
                   "or an element of an RW resource", dest.coord)


def lvalue_problem(expr) -> str | None:
    """None if ``expr`` is writable; else what it is ('' for no l-value at all)."""
    if isinstance(expr, ast.Identifier):
        return _declaration_problem(expr.decl)
    if isinstance(expr, ast.Member):
        if expr.swizzle is not None and len(set(expr.swizzle)) != len(expr.swizzle):
            return f"swizzle '{expr.name}', which repeats a component"
        return lvalue_problem(expr.obj)
    if isinstance(expr, ast.Index):
        if expr.decl is not None:
            return ""  # a struct's operator[] returns a value
        obj_type = expr.obj.type
        if isinstance(obj_type, T.ResourceType):
            if not obj_type.writable:
                return f"an element of read-only resource '{root_name(expr.obj)}' ({obj_type})"
            return None
        return lvalue_problem(expr.obj)
    return ""


def _declaration_problem(decl) -> str | None:
    if isinstance(decl, ast.FieldRef):  # a member of a method's object
        const = "const" in decl.this_param.modifiers
        return f"member '{decl.name}' in a const method" if const else None
    if decl is None:
        return None  # an undeclared name: already reported
    if isinstance(decl, ast.Param):
        return f"const parameter '{decl.name}'" if "const" in decl.modifiers else None
    storage = getattr(decl, "storage", "local")
    if storage == "cbuffer":
        return f"'{decl.name}': constant buffer members are read-only"
    if storage == "uniform":
        return f"'{decl.name}': global variables without 'static' are uniform constants"
    if "const" in decl.modifiers:
        return f"const variable '{decl.name}'"
    base = decl.type
    while isinstance(base, T.ArrayType):
        base = base.element
    if storage == "resource":  # a local resource variable may be reassigned (lower/resource_cells.py)
        return f"resource '{decl.name}'"
    return None


def root_name(expr) -> str:
    """The variable an access path starts from: ``a`` for ``a[i].b``."""
    while isinstance(expr, (ast.Index, ast.Member)):
        expr = expr.obj
    return getattr(expr, "name", "?")
