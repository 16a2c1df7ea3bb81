"""Overload resolution for HLSL intrinsics and resource methods.

Semantic analysis calls ``lookup_function(name, arg_types)`` or
``lookup_method(obj_type, name, arg_types)`` and gets a ``Resolution``: the type
each argument converts to, the result type, which arguments are out/inout, and
the flags later stages need. The table itself is ``intrinsic_signatures.py``.

Conversion costs, cheapest first (DXC's implicit conversions)::

    EXACT       the same type
    PROMOTION   a scalar (or 1-vector) splatted to a vector or matrix; a wider
                element of the same kind (half -> float, int16_t -> int)
    CONVERSION  another element kind or a narrower one (int -> float, float -> half,
                int <-> uint, bool -> int)
    TRUNCATION  a vector or matrix cut to fewer components (sema warns)

An argument's rank is the worse of its shape and element ranks. An overload
costs (its worst argument rank, the sum of its argument ranks, the sum of shape
and element ranks counted apart, so ``mul(float4, int)`` prefers vector*scalar
to a splatted dot product); the cheapest overload wins and the earlier one in
the table breaks ties.

Template deduction, per template letter of a signature: the element is the
usual arithmetic conversion (``hlsl_types.common_scalar``) of the arguments
bound to the letter, then fitted to the letter's element class (``sqrt(int)``
works in float; ``half`` stays ``half``); arguments flagged as untyped literals
take the others' type unless that loses their kind, so ``max(half3, 0.5)``
stays half while ``max(int, 0.5)`` is float. The shape is that of the
non-scalar arguments (scalars splat), the smallest when they differ (the rest
truncate). When a letter appears in an ``inout`` (else an ``out``) parameter,
those l-values alone decide it: ``InterlockedAdd(int_dest, 1u)`` works on int.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache, reduce

from . import hlsl_types as T
from .intrinsic_signatures import FUNCTIONS, METHODS, TEMPLATE_DOCS, TEMPLATES, Entry

EXACT, PROMOTION, CONVERSION, TRUNCATION = 0, 1, 2, 3

Shape = tuple[int, ...]  # () scalar, (n,) vector, (rows, cols) matrix


class IntrinsicError(Exception):
    """A call no overload accepts. ``notes`` lists the candidates for diagnostics."""

    def __init__(self, message: str, notes: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.notes = tuple(notes)


@dataclass(frozen=True)
class Resolution:
    name: str
    group: str
    param_types: tuple[T.Type, ...]  # what each argument is implicitly converted to
    return_type: T.Type
    out_params: tuple[int, ...] = ()  # argument indexes that are out/inout (must be l-values)
    uniform_result: bool = False
    writes_resource: bool = False
    truncated_args: tuple[int, ...] = ()  # argument indexes converted by truncation (warn)
    doc: str = ""


# ---------------------------------------------------------------------------
# Signatures

@dataclass(frozen=True)
class Pattern:
    """A type as a signature writes it."""

    text: str
    concrete: T.Type | None = None  # a fixed type
    letter: str = ""  # template letter
    dims: tuple[str, ...] | None = None  # None: the letter's own shape; else "1"/"3"/"n" per dimension
    element: T.ScalarType | None = None  # ``uint<T>``: T's shape with this element

    @property
    def is_template(self) -> bool:
        return bool(self.letter) and self.element is None


@dataclass(frozen=True)
class Param:
    pattern: Pattern
    mode: str  # "in", "out" or "inout"
    name: str
    optional: bool


@dataclass(frozen=True)
class Signature:
    name: str
    ret: Pattern
    params: tuple[Param, ...]

    @property
    def min_args(self) -> int:
        return sum(not param.optional for param in self.params)

    def __str__(self) -> str:
        params = []
        for param in self.params:
            mode = "" if param.mode == "in" else param.mode + " "
            text = f"{mode}{param.pattern.text} {param.name}".strip()
            params.append(f"[{text}]" if param.optional else text)
        return f"{self.ret.text} {self.name}({', '.join(params)})"


_NAMED_TYPES: dict[str, T.Type] = {
    **T.BUILTIN_TYPES,
    "void": T.VOID,
    "SamplerState": T.SamplerType("SamplerState"),
    "SamplerComparisonState": T.SamplerType("SamplerComparisonState"),
}
_SIGNATURE = re.compile(r"(?P<ret>\S+)\s+(?P<name>\w+)\((?P<params>.*)\)")
_SHAPED = re.compile(r"(?P<letter>[A-Z]):(?P<dims>\w+(?:\*\w+)?)")
_DERIVED = re.compile(r"(?P<element>\w+)<(?P<letter>[A-Z])>")


def parse_type(text: str, env: dict[str, T.Type]) -> Pattern:
    """One type of a signature; ``env`` supplies the ``$placeholders`` of methods."""
    if text.startswith("$"):
        return Pattern(str(env[text]), concrete=env[text])  # KeyError: the kind lacks it
    if text in TEMPLATES:
        return Pattern(text, letter=text)
    shaped = _SHAPED.fullmatch(text)
    if shaped:
        dims = tuple(shaped["dims"].split("*"))
        return Pattern(text, letter=shaped["letter"], dims=() if dims == ("1",) else dims)
    derived = _DERIVED.fullmatch(text)
    if derived:
        return Pattern(text, letter=derived["letter"], element=T.SCALARS[derived["element"]])
    if text in _NAMED_TYPES:
        return Pattern(text, concrete=_NAMED_TYPES[text])
    raise ValueError(f"unknown type {text!r} in an intrinsic signature")


def parse_signature(text: str, env: dict[str, T.Type] | None = None) -> Signature:
    """``"T clamp(T x, T lo, T hi)"`` -> Signature (see intrinsic_signatures)."""
    match = _SIGNATURE.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"malformed intrinsic signature {text!r}")
    env = env or {}
    params = []
    for part in filter(None, (piece.strip() for piece in match["params"].split(","))):
        words = part.strip("[]").split()
        mode = words.pop(0) if words[0] in ("in", "out", "inout") else "in"
        name = words[1] if len(words) > 1 else ""
        params.append(Param(parse_type(words[0], env), mode, name, part.startswith("[")))
    return Signature(match["name"], parse_type(match["ret"], env), tuple(params))


# ---------------------------------------------------------------------------
# Conversion costs

def shape_of(t: T.Type) -> Shape | None:
    """() for a scalar, (n,) for a vector, (rows, cols) for a matrix, None otherwise."""
    if isinstance(t, T.ScalarType):
        return ()
    if isinstance(t, T.VectorType):
        return (t.size,)
    if isinstance(t, T.MatrixType):
        return (t.rows, t.cols)
    return None


def make_type(element: T.ScalarType, shape: Shape) -> T.Type:
    if len(shape) == 2:
        return T.MatrixType(element, *shape)
    return T.VectorType(element, shape[0]) if shape else element


def _shape_rank(src: Shape, dst: Shape) -> int | None:
    if src == dst:
        return EXACT
    if src in ((), (1,)):
        return PROMOTION  # splat
    if dst == () and len(src) == 1:
        return TRUNCATION  # a vector to its first component; a matrix never silently
    if len(src) == len(dst) and all(d <= s for s, d in zip(src, dst)):
        return TRUNCATION
    return None


def _element_rank(src: T.ScalarType, dst: T.ScalarType) -> int:
    if src == dst:
        return EXACT
    if src.kind == dst.kind and src.bits < dst.bits:
        return PROMOTION
    return CONVERSION


Cost = tuple[int, int]  # (shape rank, element rank) of one argument


def conversion_cost(src: T.Type, dst: T.Type) -> Cost | None:
    """Shape and element ranks of the implicit conversion ``src`` -> ``dst``; None if none."""
    if src == dst:
        return (EXACT, EXACT)
    src_shape, dst_shape = shape_of(src), shape_of(dst)
    if src_shape is None or dst_shape is None:
        return None
    shape_rank = _shape_rank(src_shape, dst_shape)
    if shape_rank is None:
        return None
    return (shape_rank, _element_rank(src.element, dst.element))


def conversion_rank(src: T.Type, dst: T.Type) -> int | None:
    """Rank of the implicit conversion ``src`` -> ``dst`` (EXACT...TRUNCATION); None if none."""
    cost = conversion_cost(src, dst)
    return None if cost is None else max(cost)


def _out_cost(arg: T.Type, param: T.Type) -> Cost | None:
    """An out argument is written back: same shape, element converted both ways."""
    if arg == param:
        return (EXACT, EXACT)
    shape = shape_of(arg)
    return (EXACT, CONVERSION) if shape is not None and shape == shape_of(param) else None


def _argument_cost(mode: str, arg: T.Type, param: T.Type) -> Cost | None:
    if mode == "inout":  # atomic destinations: the l-value itself, no temporary
        return (EXACT, EXACT) if arg == param else None
    if mode == "out":
        return _out_cost(arg, param)
    return conversion_cost(arg, param)


# ---------------------------------------------------------------------------
# Template deduction

_ELEMENT_CLASSES = {
    "numeric": lambda e: T.INT if e.kind == "bool" else e,
    "floating": lambda e: e if e.is_float and e.bits <= 32 else T.FLOAT,  # DXC's float_like
    "any_float": lambda e: e if e.is_float else T.FLOAT,
    "integer": lambda e: e if e.is_integer else None,
    "any": lambda e: e,
    "bits32": lambda e: e if e.bits == 32 and e.kind != "bool" else None,
    "atomic": lambda e: e if e.is_integer and e.bits in (32, 64) else None,
    "bits16": lambda e: e if e.bits == 16 and e.kind != "bool" else None,
    "int16or32": lambda e: e if e.is_integer and e.bits in (16, 32) else None,
    "sint16or32": lambda e: e if e.kind == "int" and e.bits in (16, 32) else None,
}
_CLASS_NAMES = {
    "integer": "an integer type",
    "bits32": "a 32-bit int, uint or float type",
    "atomic": "a 32- or 64-bit int or uint",
    "bits16": "a 16-bit int16_t, uint16_t or half type",
    "int16or32": "a 16- or 32-bit int or uint type",
    "sint16or32": "a 16- or 32-bit signed int type (int or int16_t)",
}


class _NoMatch(Exception):
    """This overload does not fit; the message says why."""


@dataclass
class _Binding:
    elements: dict[str, T.ScalarType]
    shapes: dict[str, Shape]  # each letter's own shape
    dims: dict[str, int]  # dimension variables: "n", "r", "c"...


def _deciding(sig: Signature, args: Sequence[T.Type], letter: str) -> list[int]:
    """Indexes of the arguments that decide ``letter``: l-values first."""
    bound = [i for i in range(len(args)) if sig.params[i].pattern.letter == letter]
    for mode in ("inout", "out"):
        lvalues = [i for i in bound if sig.params[i].mode == mode and sig.params[i].pattern.is_template]
        if lvalues:
            return lvalues
    return bound


def _deduce_element(letter: str, elements: list[tuple[int, T.ScalarType]],
                    literal_args: Collection[int], sig: Signature) -> T.ScalarType:
    element_class = TEMPLATES[letter][0]
    if element_class in T.SCALARS:
        return T.SCALARS[element_class]
    typed = [e for i, e in elements if i not in literal_args]
    common = reduce(T.common_scalar, typed or [e for _, e in elements])
    for i, element in elements:
        if typed and i in literal_args and not _literal_adapts(element, common):
            common = T.common_scalar(common, element)
    fitted = _ELEMENT_CLASSES[element_class](common)
    if fitted is None:
        wanted = _CLASS_NAMES.get(element_class, element_class)
        raise _NoMatch(f"'{sig.name}' needs {wanted}, not {common}")
    return fitted


def _literal_adapts(literal: T.ScalarType, other: T.ScalarType) -> bool:
    """An untyped literal takes the other arguments' type unless it would lose its kind."""
    return other.is_float if literal.is_float else other.kind != "bool"


def _merge_shapes(shapes: list[Shape]) -> Shape | None:
    """The common shape of arguments: scalars splat, larger shapes truncate."""
    big = [shape for shape in shapes if shape not in ((), (1,))]
    if not big:
        return (1,) if (1,) in shapes else ()
    if len({len(shape) for shape in big}) > 1:
        return None  # vectors and matrices mixed
    return tuple(min(sizes) for sizes in zip(*big))


def _bind_dims(sig: Signature, args: Sequence[T.Type]) -> dict[str, int]:
    """Dimension variables (``T:n``, ``T:r*c``): the smallest size bound to each."""
    candidates: dict[str, list[int]] = {}
    for param, arg in zip(sig.params, args):
        dims = param.pattern.dims
        shape = shape_of(arg)
        if dims and shape is not None and len(shape) == len(dims):
            for var, size in zip(dims, shape):
                candidates.setdefault(var, []).append(size)
    return {var: min(sizes) for var, sizes in candidates.items()}


def _bind(sig: Signature, args: Sequence[T.Type], literal_args: Collection[int]) -> _Binding:
    binding = _Binding({}, {}, _bind_dims(sig, args))
    letters = {param.pattern.letter for param in sig.params if param.pattern.letter}
    for letter in sorted(letters):
        deciding = _deciding(sig, args, letter)
        elements, shapes = [], []
        for i in deciding:
            shape = shape_of(args[i])
            if shape is None:
                raise _NoMatch(f"argument {i + 1} has type {args[i]}, not a numeric type")
            if sig.params[i].pattern.is_template:
                elements.append((i, args[i].element))
            if sig.params[i].pattern.dims is None:
                shapes.append(shape)
        if not elements:
            raise _NoMatch(f"cannot deduce the type of '{sig.name}'")
        binding.elements[letter] = _deduce_element(letter, elements, literal_args, sig)
        shape = _merge_shapes(shapes)
        if shape is None:
            raise _NoMatch("vector and matrix arguments mixed")
        if len(shape) == 2 and TEMPLATES[letter][1] == "sv":
            raise _NoMatch(f"'{sig.name}' does not take matrices")
        binding.shapes[letter] = shape
    return binding


def _instantiate(pattern: Pattern, binding: _Binding) -> T.Type:
    if pattern.concrete is not None:
        return pattern.concrete
    element = pattern.element or binding.elements[pattern.letter]
    if pattern.dims is None:
        return make_type(element, binding.shapes[pattern.letter])
    shape = tuple(int(d) if d.isdigit() else binding.dims.get(d, 1) for d in pattern.dims)
    return element if shape == (1,) else make_type(element, shape)


@dataclass(frozen=True)
class _Candidate:
    signature: Signature
    param_types: tuple[T.Type, ...]
    return_type: T.Type
    costs: tuple[Cost, ...]

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(max(cost) for cost in self.costs)

    @property
    def cost(self) -> tuple[int, int, int]:
        """Worst argument, then the sum of arguments, then shape and element steps apart."""
        parts = sum(shape + element for shape, element in self.costs)
        return (max(self.ranks, default=EXACT), sum(self.ranks), parts)


def _match(sig: Signature, args: Sequence[T.Type], literal_args: Collection[int] = ()) -> _Candidate:
    """Fit ``args`` to one signature, or raise _NoMatch saying why not."""
    if not sig.min_args <= len(args) <= len(sig.params):
        most = len(sig.params)
        wanted = str(most) if sig.min_args == most else f"{sig.min_args} to {most}"
        plural = "" if wanted == "1" else "s"
        raise _NoMatch(f"'{sig.name}' takes {wanted} argument{plural}, not {len(args)}")
    binding = _bind(sig, args, literal_args)
    param_types = tuple(_instantiate(param.pattern, binding) for param in sig.params[:len(args)])
    costs = []
    for i, (param, arg, param_type) in enumerate(zip(sig.params, args, param_types)):
        cost = _argument_cost(param.mode, arg, param_type)
        if cost is None and param.mode == "in":
            raise _NoMatch(f"argument {i + 1}: cannot convert {arg} to {param_type}")
        if cost is None:
            raise _NoMatch(f"argument {i + 1}: the {param.mode} parameter needs {param_type}, not {arg}")
        costs.append(cost)
    return _Candidate(sig, param_types, _instantiate(sig.ret, binding), tuple(costs))


def _describe_args(args: Sequence[T.Type]) -> str:
    return "(" + ", ".join(str(arg) for arg in args) + ")"


def _resolve(entry: Entry, what: str, signatures: Sequence[Signature], args: Sequence[T.Type],
             literal_args: Collection[int]) -> Resolution:
    candidates, notes = [], []
    for sig in signatures:
        try:
            candidates.append(_match(sig, args, literal_args))
        except _NoMatch as no_match:
            notes.append((f"candidate: {sig}", str(no_match)))
    if not candidates:
        message = f"no matching overload for {what} with arguments {_describe_args(args)}"
        if len(notes) == 1:
            message += f": {notes[0][1]}"
        raise IntrinsicError(message, [f"{candidate} ({reason})" for candidate, reason in notes])
    best = min(candidates, key=lambda candidate: candidate.cost)  # min keeps the first on ties
    params = best.signature.params
    return Resolution(
        name=entry.name,
        group=entry.group,
        param_types=best.param_types,
        return_type=best.return_type,
        out_params=tuple(i for i in range(len(args)) if params[i].mode != "in"),
        uniform_result=entry.uniform_result,
        writes_resource=entry.writes_resource,
        truncated_args=tuple(i for i, rank in enumerate(best.ranks) if rank == TRUNCATION),
        doc=entry.doc,
    )


# ---------------------------------------------------------------------------
# Functions

_FUNCTIONS: dict[str, Entry] = {entry.name: entry for entry in FUNCTIONS}


@lru_cache(maxsize=None)
def _function_signatures(name: str) -> tuple[Signature, ...]:
    return tuple(parse_signature(text) for text in _FUNCTIONS[name].signatures)


def is_intrinsic(name: str) -> bool:
    """True if ``name`` is an intrinsic function (methods excluded)."""
    return name in _FUNCTIONS


def lookup_function(name: str, arg_types: Sequence[T.Type], literal_args: Collection[int] = ()) -> Resolution:
    """Resolve a call of an intrinsic function; raise IntrinsicError if nothing fits.

    ``literal_args``: indexes of arguments that are untyped literals (``0.5``,
    ``1``); their type adapts to the other arguments as in DXC.
    """
    entry = _FUNCTIONS.get(name)
    if entry is None:
        raise IntrinsicError(f"unknown intrinsic function '{name}'")
    if entry.rejected:
        raise IntrinsicError(entry.rejected)
    if entry.vector_sizes:
        _check_vector_sizes(entry, arg_types)
    return _resolve(entry, f"'{name}'", _function_signatures(name), list(arg_types), frozenset(literal_args))


def _check_vector_sizes(entry: Entry, arg_types: Sequence[T.Type]) -> None:
    """Intrinsics whose arguments are vectors of certain sizes only, not splatted or cut to
    them (``AddUint64`` on uint2 or uint4, as DXC requires)."""
    wanted = " or ".join(f"{size}-component" for size in entry.vector_sizes) + " vectors"
    for index, arg in enumerate(arg_types):
        if not (isinstance(arg, T.VectorType) and arg.size in entry.vector_sizes):
            raise IntrinsicError(f"'{entry.name}' takes {wanted} (argument {index + 1} is {arg})")


# ---------------------------------------------------------------------------
# Methods

def _index_methods() -> dict[tuple[str, str], list[Entry]]:
    """(resource kind, method name) -> its entries, in table order."""
    index: dict[tuple[str, str], list[Entry]] = {}
    for entry in METHODS:
        for kind in entry.kinds:
            index.setdefault((kind, entry.name), []).append(entry)
    return index


_METHODS = _index_methods()

def method_placeholders(res: T.ResourceType) -> dict[str, T.Type]:
    """The ``$`` types of a resource's method signatures."""
    element = res.element if res.element is not None else T.VectorType(T.FLOAT, 4)
    env: dict[str, T.Type] = {"$elem": element}
    scalar = T.element_of(element)
    if scalar is not None:
        env["$elem4"] = T.VectorType(scalar, 4)
    if res.is_texture:
        dims, plain_dims = res.coord_dims, res.coord_dims - res.is_array
        env["$coord"] = T.vector(T.FLOAT, dims)  # for arrays the last component is the slice
        env["$loc"] = T.vector(T.INT, dims if res.writable else dims + 1)  # + mip level
        env["$grad"] = T.vector(T.FLOAT, plain_dims)
        if res.kind not in T.CUBE_KINDS and not res.writable:
            env["$offset"] = T.vector(T.INT, plain_dims)
    return env


def _size_outputs(res: T.ResourceType) -> list[str]:
    """What GetDimensions reports: width [, height] [, depth or array elements]."""
    count = res.coord_dims - 1 if res.kind in T.CUBE_KINDS else res.coord_dims
    names = ["width", "height", "depth"][:count]
    if res.is_array:
        names[-1] = "elements"
    return names


def _expand(text: str, res: T.ResourceType) -> str:
    """Spell out ``$sizes`` / ``$fsizes``: one out parameter per reported size."""
    names = _size_outputs(res) if res.is_texture else []
    text = text.replace("$fsizes", ", ".join(f"out float {name}" for name in names))
    return text.replace("$sizes", ", ".join(f"out uint {name}" for name in names))


@lru_cache(maxsize=None)
def _method_signatures(texts: tuple[str, ...], res: T.ResourceType) -> tuple[Signature, ...]:
    return _parse_method_signatures(texts, res)


def _parse_method_signatures(texts: tuple[str, ...], res: T.ResourceType,
                             template: T.Type | None = None) -> tuple[Signature, ...]:
    """The overloads of a method; ``$T`` is the template argument (``Load<T>``), and the forms
    that use it exist only when one is given. (Not cached with a template: two structs of one
    name in two sources are equal types.)"""
    env = method_placeholders(res)
    if template is not None:
        env["$T"] = template
    signatures = []
    for text in texts:
        try:
            signatures.append(parse_signature(_expand(text, res), env))
        except KeyError:
            continue  # a form this kind lacks (offsets on cubes)
    return tuple(signatures)


def _not_a_method(obj_type: T.Type, name: str) -> str:
    message = f"'{name}' is not a method of {obj_type}"
    if isinstance(obj_type, T.ResourceType) and (f"RW{obj_type.kind}", name) in _METHODS:
        message += f" ({obj_type.kind} is read-only; RW{obj_type.kind} has it)"
    return message


def is_method(obj_type: T.Type, name: str) -> bool:
    return isinstance(obj_type, T.ResourceType) and (obj_type.kind, name) in _METHODS


def lookup_method(obj_type: T.Type, name: str, arg_types: Sequence[T.Type],
                  template: T.Type | None = None) -> Resolution:
    """Resolve ``obj.name(args)`` (``obj.name<template>(args)``) on a resource; samplers and
    values have no methods."""
    entries = _METHODS.get((obj_type.kind, name)) if isinstance(obj_type, T.ResourceType) else None
    if not entries:
        raise IntrinsicError(_not_a_method(obj_type, name))
    if entries[0].rejected:
        raise IntrinsicError(entries[0].rejected.format(type=obj_type))
    texts = tuple(text for entry in entries for text in entry.signatures)
    if template is not None:
        texts = tuple(text for text in texts if "$T" in text)
        if not texts:
            raise IntrinsicError(f"'{name}' of {obj_type} takes no template argument")
    signatures = _method_signatures(texts, obj_type) if template is None else \
        _parse_method_signatures(texts, obj_type, template)
    return _resolve(entries[0], f"'{name}' of {obj_type}", signatures, list(arg_types), ())


# ---------------------------------------------------------------------------
# Help

def describe(name: str, obj_type: T.ResourceType | None = None) -> str:
    """``name: doc`` and one line per overload, for diagnostics and ``--help``."""
    if obj_type is None:
        entries = [_FUNCTIONS[name]] if name in _FUNCTIONS else []
        signatures: Sequence[Signature] = _function_signatures(name) if entries else ()
    else:
        entries = _METHODS.get((obj_type.kind, name), [])
        texts = tuple(text for entry in entries for text in entry.signatures)
        signatures = _method_signatures(texts, obj_type)
    if not entries:
        raise KeyError(name)
    lines = [f"{name}: {entries[0].doc}"]
    lines += [f"    {sig}" for sig in signatures]
    used = sorted({param.pattern.letter for sig in signatures for param in sig.params} - {""})
    lines += [f"  where {letter} is {TEMPLATE_DOCS[letter]}" for letter in used]
    return "\n".join(lines)


def function_names(group: str | None = None) -> list[str]:
    """Intrinsic function names in table order, optionally of one group."""
    return [entry.name for entry in FUNCTIONS if group is None or entry.group == group]
