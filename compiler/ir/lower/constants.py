"""Integer constant expressions on the checked AST, with HLSL's integer rules.

``constant_int(expr, env)`` decides what lowering may treat as a compile-time
integer: an index that is one keeps its local array in SSA values (any other sends
it to scratch memory), a case label must be one, and a loop unrolls when its
counter's start, condition and step are. ``env`` binds the counters of the
enclosing unrolled loops to their values in the iteration being lowered.
``root_decl`` names the variable an l-value path starts from.
"""

from __future__ import annotations

from ...frontend import ast
from ...frontend import hlsl_types as T
from ...frontend.expressions import ExpressionChecker

_COMPARISONS = {"<", ">", "<=", ">=", "==", "!="}


def wrap_constant(value: int, t) -> int | None:
    """``value`` as a constant of the integer or bool scalar type ``t`` (None for other types)."""
    if isinstance(t, T.VectorType) and t.size == 1:
        t = t.element
    if not isinstance(t, T.ScalarType) or t.is_float:
        return None
    if t.kind == "bool":
        return int(value != 0)
    value &= (1 << t.bits) - 1
    if t.kind == "int" and value >= 1 << (t.bits - 1):
        value -= 1 << t.bits
    return value


def integer_op(op: str, left: int, right: int, t: T.ScalarType) -> int | None:
    """``left op right`` with HLSL's integer rules in ``t`` (operands already wrapped to ``t``)."""
    if op in ("/", "%"):
        if right == 0:
            return None
        quotient = abs(left) // abs(right) * (1 if (left < 0) == (right < 0) else -1)
        return quotient if op == "/" else left - quotient * right
    if op in ("<<", ">>"):
        right &= t.bits - 1
        return left << right if op == "<<" else left >> right  # >> of a negative int is arithmetic
    operations = {"+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
                  "&": lambda: left & right, "|": lambda: left | right, "^": lambda: left ^ right}
    operation = operations.get(op)
    return operation() if operation else None


def constant_int(expr, env: dict | None = None) -> int | None:
    """The value of an integer (or bool) constant expression, or None.

    Literals, ``const`` locals and statics with constant initialisers, and the
    variables ``env`` binds (the counters of loops being unrolled) are constants;
    arithmetic follows HLSL: every step is wrapped to the type sema gave it, and
    comparisons convert both sides to their common type first (``uint`` compares
    as unsigned).
    """
    if isinstance(expr, ast.IntLiteral):
        return wrap_constant(expr.value, expr.type)
    if isinstance(expr, ast.BoolLiteral):
        return int(expr.value)
    if isinstance(expr, ast.Identifier):
        decl = expr.decl
        if env and decl in env:
            return env[decl]
        if isinstance(decl, ast.VarDecl) and "const" in decl.modifiers and decl.init is not None \
                and decl.storage in ("static", "local") and not isinstance(decl.init, ast.InitList):
            value = constant_int(decl.init, env)
            return None if value is None else wrap_constant(value, decl.type)
        return None
    if isinstance(expr, ast.Unary) and not expr.postfix:
        value = constant_int(expr.operand, env)
        if value is None:
            return None
        if expr.op == "!":
            return int(not value)
        result = {"-": -value, "+": value, "~": ~value}.get(expr.op)
        return None if result is None else wrap_constant(result, expr.type)
    if isinstance(expr, ast.Binary):
        return _constant_binary(expr, env)
    if isinstance(expr, ast.Cast) and isinstance(expr.type, T.ScalarType) and not expr.type.is_float:
        value = constant_int(expr.expr, env)
        return None if value is None else wrap_constant(value, expr.type)
    if isinstance(expr, ast.Conditional):
        cond = constant_int(expr.cond, env)
        if cond is None:
            return None
        value = constant_int(expr.then if cond else expr.otherwise, env)
        return None if value is None else wrap_constant(value, expr.type)
    return None


def _constant_binary(expr: ast.Binary, env: dict | None) -> int | None:
    left, right = constant_int(expr.left, env), constant_int(expr.right, env)
    if left is None or right is None:
        return None
    if expr.op == "&&":
        return int(bool(left) and bool(right))
    if expr.op == "||":
        return int(bool(left) or bool(right))
    if expr.op in _COMPARISONS:
        element = ExpressionChecker.operand_element(None, expr.left, expr.left.type, expr.right, expr.right.type)
        left, right = wrap_constant(left, element), wrap_constant(right, element)
        if left is None or right is None:
            return None
        return int({"<": left < right, ">": left > right, "<=": left <= right, ">=": left >= right,
                    "==": left == right, "!=": left != right}[expr.op])
    t = expr.type
    if isinstance(t, T.VectorType) and t.size == 1:
        t = t.element
    if not isinstance(t, T.ScalarType) or t.is_float:
        return None
    left, right = wrap_constant(left, t), wrap_constant(right, t)
    result = integer_op(expr.op, left, right, t)
    return None if result is None else wrap_constant(result, t)


def root_decl(expr):
    while isinstance(expr, (ast.Index, ast.Member)):
        expr = expr.obj
    decl = expr.decl if isinstance(expr, ast.Identifier) else None
    return decl.this_param if isinstance(decl, ast.FieldRef) else decl  # a member x is this.x
