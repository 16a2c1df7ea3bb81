"""A short source form of an expression, to name the temporary that holds its value in reports.

``a * b``, ``-x``, ``v.xy``, ``taps[i]``, ``tex.SampleLevel(...)``, ``max(...)``: calls keep their
name and drop their arguments; anything nested deeper than ``DEPTH`` levels becomes ``...``;
the text is cut at ``LIMIT`` characters. The depth bound keeps naming cheap on deep
expressions (each lowered subexpression is named once, from the top of its own tree).
"""

from __future__ import annotations

from ...frontend import ast

DEPTH = 3
LIMIT = 40


def expression_text(node) -> str | None:
    """The short form of ``node``, or None for expressions not worth a name (variables, literals)."""
    if isinstance(node, (ast.Identifier, ast.IntLiteral, ast.FloatLiteral, ast.BoolLiteral, ast.InitList,
                         ast.Assign, ast.Comma)):
        return None
    text = _text(node, DEPTH)
    if len(text) > LIMIT:
        text = text[:LIMIT - 3].rstrip() + "..."
    return text


def _text(node, depth: int) -> str:
    if depth < 0:
        return "..."
    inner = depth - 1
    match node:
        case ast.Identifier():
            return node.name
        case ast.IntLiteral() | ast.FloatLiteral():
            return f"{node.value}{node.suffix}"
        case ast.BoolLiteral():
            return "true" if node.value else "false"
        case ast.Binary():
            rank = _RANKS.get(node.op, 0)
            return f"{_operand(node.left, inner, rank)} {node.op} {_operand(node.right, inner, rank + 1)}"
        case ast.Unary():
            operand = _operand(node.operand, inner)
            return f"{operand}{node.op}" if node.postfix else f"{node.op}{operand}"
        case ast.Conditional():
            return f"{_operand(node.cond, inner)} ? {_operand(node.then, inner)} : {_operand(node.otherwise, inner)}"
        case ast.Call():
            return f"{node.name}(...)" if node.args else f"{node.name}()"
        case ast.MethodCall():
            return f"{_operand(node.obj, inner)}.{node.name}(...)" if node.args else f"{_operand(node.obj, inner)}.{node.name}()"
        case ast.Member():
            return f"{_operand(node.obj, inner)}.{node.name}"
        case ast.Index():
            return f"{_operand(node.obj, inner)}[{_text(node.index, inner)}]"
        case ast.Cast():
            return f"({_type_name(node.type_spec)}){_operand(node.expr, inner)}"
        case ast.Construct():
            return f"{_type_name(node.type_spec)}(...)"
    return "..."


# C's binary precedence, loosest first
_RANKS = {op: rank for rank, ops in enumerate((
    ("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="), ("<<", ">>"),
    ("+", "-"), ("*", "/", "%"))) for op in ops}
_UNARY_RANK = len(set(_RANKS.values())) + 1


def _operand(node, depth: int, rank: int = _UNARY_RANK) -> str:
    """An operand, parenthesised when it binds more loosely than where it stands (``rank``)."""
    text = _text(node, depth)
    binds = _RANKS.get(node.op, 0) if isinstance(node, ast.Binary) else -1 if isinstance(node, ast.Conditional) \
        else _UNARY_RANK + 1
    if binds < rank and text != "...":
        return f"({text})"
    return text


def _type_name(spec) -> str:
    return str(getattr(spec, "name", None) or getattr(spec, "type", None) or "?")
