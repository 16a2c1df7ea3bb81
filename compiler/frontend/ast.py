"""The HLSL syntax tree: small slotted node classes, each with a source ``Coord``.

The parser builds these; semantic analysis fills the ``type`` of expressions and
the ``decl`` an identifier refers to, and nothing after it changes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Iterator

from ..diagnostics import UNKNOWN, Coord


class Node:
    __slots__ = ()
    coord: Coord

    def children(self) -> Iterator[Node]:
        """The child nodes in source order (sema-filled links are not children)."""
        for spec in fields(self):  # type: ignore[arg-type]
            if spec.name in _NOT_CHILDREN:
                continue
            value = getattr(self, spec.name)
            if isinstance(value, Node):
                yield value
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, Node):
                        yield item


_NOT_CHILDREN = frozenset({"coord", "type", "decl", "resolved", "owner", "this_param"})


def node(cls):
    return dataclass(slots=True, eq=False, repr=False)(cls)


# ---------------------------------------------------------------- shared pieces


@node
class TypeSpec(Node):
    """A type as written: ``float4``, ``vector<float, 4>``, ``RWTexture2D<float4>``, ``S``."""

    name: str
    args: list[Any] = field(default_factory=list)  # TypeSpec or Expr (template arguments)
    modifiers: list[str] = field(default_factory=list)  # const, row_major, snorm, ...
    coord: Coord = UNKNOWN
    resolved: Any = None  # hlsl_types.Type, filled by sema


@node
class Attribute(Node):
    """``[numthreads(8, 8, 1)]``, ``[unroll]``, ``[[vk::binding(0, 1)]]``."""

    name: str
    args: list[Any] = field(default_factory=list)
    coord: Coord = UNKNOWN


@node
class Register(Node):
    """``register(u3, space1)``: ``kind`` 'u', ``index`` 3, ``space`` 1."""

    kind: str
    index: int
    space: int = 0
    coord: Coord = UNKNOWN


# ---------------------------------------------------------------- declarations


@node
class VarDecl(Node):
    type_spec: TypeSpec
    name: str
    dims: list[Any] = field(default_factory=list)  # array sizes as Expr, None for []
    init: Any = None
    modifiers: list[str] = field(default_factory=list)  # static, const, groupshared, ...
    semantic: str | None = None
    register: Register | None = None
    packoffset: str | None = None
    attributes: list[Attribute] = field(default_factory=list)
    coord: Coord = UNKNOWN
    type: Any = None  # the full type including array dimensions
    storage: str = "local"  # local, static, groupshared, resource, cbuffer, uniform (set by sema)


@node
class Param(Node):
    type_spec: TypeSpec
    name: str
    dims: list[Any] = field(default_factory=list)
    modifiers: list[str] = field(default_factory=list)  # in, out, inout, uniform, ...
    semantic: str | None = None
    default: Any = None
    coord: Coord = UNKNOWN
    type: Any = None

    @property
    def direction(self) -> str:
        if "inout" in self.modifiers or ("in" in self.modifiers and "out" in self.modifiers):
            return "inout"
        return "out" if "out" in self.modifiers else "in"


@node
class FuncDecl(Node):
    return_type: TypeSpec
    name: str
    params: list[Param]
    body: Any = None  # Compound, or None for a prototype
    attributes: list[Attribute] = field(default_factory=list)
    modifiers: list[str] = field(default_factory=list)
    semantic: str | None = None
    coord: Coord = UNKNOWN
    type: Any = None  # the return type
    owner: Any = None  # a method's struct (hlsl_types.StructType), filled by sema
    qualifier: str | None = None  # ``float S::f() {...}``: a method defined outside its struct
    const_method: bool = False  # ``float f() const``: the method does not write its object
    this_param: Any = None  # a non-static method's implicit object, an inout Param named 'this' (sema)


@node
class StructDecl(Node):
    """``struct B : A { members; methods }`` (``class`` is the same in HLSL: every member is public)."""

    name: str
    members: list[VarDecl]
    coord: Coord = UNKNOWN
    type: Any = None
    base: TypeSpec | None = None  # the one base struct, if any
    methods: list[FuncDecl] = field(default_factory=list)


@node
class FieldRef(Node):
    """What an identifier inside a method names when it is a member of the object: ``x``
    meaning ``this.x``. ``index`` is the field's position in ``this``'s struct."""

    name: str
    this_param: Param
    index: int
    coord: Coord = UNKNOWN
    type: Any = None


@node
class Typedef(Node):
    type_spec: TypeSpec
    name: str
    dims: list[Any] = field(default_factory=list)
    coord: Coord = UNKNOWN
    type: Any = None


@node
class CBuffer(Node):
    """``cbuffer``/``tbuffer`` blocks; members are visible at global scope."""

    kind: str
    name: str
    members: list[VarDecl]
    register: Register | None = None
    attributes: list[Attribute] = field(default_factory=list)
    coord: Coord = UNKNOWN


@node
class TranslationUnit(Node):
    decls: list[Node]
    coord: Coord = UNKNOWN


# ---------------------------------------------------------------- statements


@node
class Compound(Node):
    items: list[Node]
    coord: Coord = UNKNOWN


@node
class DeclStmt(Node):
    decls: list[Node]  # VarDecl, StructDecl or Typedef
    coord: Coord = UNKNOWN


@node
class ExprStmt(Node):
    expr: Any
    coord: Coord = UNKNOWN


@node
class EmptyStmt(Node):
    coord: Coord = UNKNOWN


@node
class If(Node):
    cond: Any
    then: Node
    otherwise: Node | None = None
    attributes: list[Attribute] = field(default_factory=list)
    coord: Coord = UNKNOWN


@node
class For(Node):
    init: Node | None  # DeclStmt or ExprStmt
    cond: Any
    step: Any
    body: Node
    attributes: list[Attribute] = field(default_factory=list)
    coord: Coord = UNKNOWN


@node
class While(Node):
    cond: Any
    body: Node
    attributes: list[Attribute] = field(default_factory=list)
    coord: Coord = UNKNOWN


@node
class DoWhile(Node):
    body: Node
    cond: Any
    attributes: list[Attribute] = field(default_factory=list)
    coord: Coord = UNKNOWN


@node
class Case(Node):
    """One ``case value:`` (``value`` None for ``default:``) and the statements after it."""

    value: Any
    body: list[Node]
    coord: Coord = UNKNOWN


@node
class Switch(Node):
    expr: Any
    cases: list[Case]
    attributes: list[Attribute] = field(default_factory=list)
    coord: Coord = UNKNOWN


@node
class Break(Node):
    coord: Coord = UNKNOWN


@node
class Continue(Node):
    coord: Coord = UNKNOWN


@node
class Return(Node):
    value: Any = None
    coord: Coord = UNKNOWN


@node
class Discard(Node):
    coord: Coord = UNKNOWN


# ---------------------------------------------------------------- expressions


@node
class Identifier(Node):
    name: str
    coord: Coord = UNKNOWN
    type: Any = None
    decl: Any = None  # the VarDecl / Param / CBuffer member it names


@node
class IntLiteral(Node):
    value: int
    suffix: str = ""  # "", "u", "l", "ul", ...
    coord: Coord = UNKNOWN
    type: Any = None


@node
class FloatLiteral(Node):
    value: float
    suffix: str = ""  # "", "f", "h", "l"
    coord: Coord = UNKNOWN
    type: Any = None


@node
class BoolLiteral(Node):
    value: bool
    coord: Coord = UNKNOWN
    type: Any = None


@node
class Binary(Node):
    op: str
    left: Any
    right: Any
    coord: Coord = UNKNOWN
    type: Any = None
    decl: Any = None  # the struct's operator method when the left operand is a struct (sema)


@node
class Unary(Node):
    """Prefix ``- + ! ~ ++ --`` and, with ``postfix`` set, ``x++``/``x--``."""

    op: str
    operand: Any
    postfix: bool = False
    coord: Coord = UNKNOWN
    type: Any = None
    decl: Any = None  # the struct's operator method for ``-s``, ``!s``... (sema)


@node
class Assign(Node):
    op: str  # "=", "+=", ...
    target: Any
    value: Any
    coord: Coord = UNKNOWN
    type: Any = None


@node
class Conditional(Node):
    cond: Any
    then: Any
    otherwise: Any
    coord: Coord = UNKNOWN
    type: Any = None


@node
class Comma(Node):
    exprs: list[Any]
    coord: Coord = UNKNOWN
    type: Any = None


@node
class Cast(Node):
    type_spec: TypeSpec
    expr: Any
    coord: Coord = UNKNOWN
    type: Any = None


@node
class Construct(Node):
    """``float4(a.xy, 0, 1)``: a constructor call on a built-in or struct type."""

    type_spec: TypeSpec
    args: list[Any]
    coord: Coord = UNKNOWN
    type: Any = None


@node
class Call(Node):
    """A call of a user function or an intrinsic by name."""

    name: str
    args: list[Any]
    coord: Coord = UNKNOWN
    type: Any = None
    decl: Any = None  # FuncDecl, or the intrinsic signature
    qualifier: str | None = None  # ``S::f(x)``: the struct named before ``::``


@node
class MethodCall(Node):
    """``tex.SampleLevel(s, uv, 0)``, ``buf.InterlockedAdd(0, 1, old)``, ``buf.Load<float2>(8)``
    (``template``: the TypeSpec between the angle brackets; sema sets ``template_type``)."""

    obj: Any
    name: str
    args: list[Any]
    coord: Coord = UNKNOWN
    type: Any = None
    decl: Any = None
    template: Any = None
    template_type: Any = None


@node
class Member(Node):
    """``s.field`` or a swizzle ``v.xyz`` (sema sets ``swizzle`` for the latter)."""

    obj: Any
    name: str
    coord: Coord = UNKNOWN
    type: Any = None
    swizzle: tuple[int, ...] | None = None


@node
class Index(Node):
    obj: Any
    index: Any
    coord: Coord = UNKNOWN
    type: Any = None
    decl: Any = None  # the struct's ``operator[]`` when ``obj`` is a struct (sema)


@node
class InitList(Node):
    items: list[Any]
    coord: Coord = UNKNOWN
    type: Any = None


EXPRESSIONS = (
    Identifier, IntLiteral, FloatLiteral, BoolLiteral, Binary, Unary, Assign, Conditional,
    Comma, Cast, Construct, Call, MethodCall, Member, Index, InitList,
)


def leftmost(expr):
    """The node where an expression starts in the source (for statement positions)."""
    while True:
        if isinstance(expr, Binary):
            expr = expr.left
        elif isinstance(expr, Assign):
            expr = expr.target
        elif isinstance(expr, (Index, Member, MethodCall)):
            expr = expr.obj
        elif isinstance(expr, Conditional):
            expr = expr.cond
        elif isinstance(expr, Comma):
            expr = expr.exprs[0]
        elif isinstance(expr, Unary) and expr.postfix:
            expr = expr.operand
        else:
            return expr


class NodeVisitor:
    """Calls ``visit_<ClassName>`` for a node, or ``generic_visit`` to walk its children.

    The method for each node class is looked up once and cached per visitor class.
    """

    _method_cache: dict[tuple[type, type], Any] = {}

    def visit(self, node: Node) -> Any:
        key = (type(self), type(node))
        method = NodeVisitor._method_cache.get(key)
        if method is None:
            method = getattr(type(self), "visit_" + type(node).__name__, type(self).generic_visit)
            NodeVisitor._method_cache[key] = method
        return method(self, node)

    def generic_visit(self, node: Node) -> Any:
        for child in node.children():
            self.visit(child)
        return None


def dump(root: Node, indent: str = "") -> str:
    """A readable, indented rendering of a tree for ``shc check --emit ast``.

    The walk keeps its own stack, so a deeply nested expression does not
    exhaust Python's recursion limit.
    """
    lines: list[str] = []
    stack: list[tuple[str, Node | str]] = [(indent, root)]
    while stack:
        prefix, item = stack.pop()
        if isinstance(item, str):  # a ".field:" label
            lines.append(prefix + item)
            continue
        lines.append(prefix + _describe(item))
        pending: list[tuple[str, Node | str]] = []
        for spec in fields(item):  # type: ignore[arg-type]
            if spec.name in _NOT_CHILDREN:
                continue
            value = getattr(item, spec.name)
            nodes = [value] if isinstance(value, Node) else (
                [v for v in value if isinstance(v, Node)] if isinstance(value, list) else [])
            if nodes:
                pending.append((prefix + "  ", f".{spec.name}:"))
                pending.extend((prefix + "    ", child) for child in nodes)
        stack.extend(reversed(pending))
    return "\n".join(lines)


def _describe(current: Node) -> str:
    """One line for a node: its class, scalar fields and position."""
    attributes = []
    for spec in fields(current):  # type: ignore[arg-type]
        value = getattr(current, spec.name)
        if spec.name in ("coord", "decl", "resolved", "owner", "this_param"):
            continue
        if isinstance(value, Node) or (isinstance(value, list) and any(isinstance(v, Node) for v in value)):
            continue
        if value is None or value == [] or value == "":
            continue
        if value is False and spec.default is False:  # a flag left unset (``const_method``)
            continue
        if spec.name == "type":
            attributes.append(f"<{value}>")
            continue
        attributes.append(f"{spec.name}={value!r}")
    text = f"{type(current).__name__} {' '.join(attributes)}".rstrip()
    return f"{text}  @{current.coord.line}:{current.coord.col}"
