"""Facts the semantic checker reads off a type or a statement."""

from __future__ import annotations

from . import ast
from . import hlsl_types as T


def innermost(t: T.Type) -> T.Type:
    while isinstance(t, T.ArrayType):
        t = t.element
    return t


def scalar_count(t: T.Type | None) -> int | None:
    if t is None:
        return None
    if isinstance(t, (T.ScalarType, T.VectorType, T.MatrixType)):
        return t.components
    if isinstance(t, T.ArrayType):
        inner = scalar_count(t.element)
        return None if inner is None or t.size is None else inner * t.size
    if isinstance(t, T.StructType):
        counts = [scalar_count(field_type) for _, field_type in t.fields]
        return None if None in counts else sum(counts)
    return None


def always_returns(stmt: ast.Node | None) -> bool:
    if stmt is None:
        return False
    if isinstance(stmt, ast.Return):
        return True
    if isinstance(stmt, ast.Compound):
        return any(always_returns(item) for item in stmt.items)
    if isinstance(stmt, ast.If):
        return always_returns(stmt.then) and always_returns(stmt.otherwise)
    if isinstance(stmt, ast.Switch):
        has_default = any(case.value is None for case in stmt.cases)
        return has_default and all(any(always_returns(i) for i in case.body) or not case.body
                                   for case in stmt.cases) and bool(stmt.cases[-1].body)
    return False
