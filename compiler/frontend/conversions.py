"""HLSL's implicit conversions, arithmetic shapes and swizzles.

One place decides whether a value of one type may stand where another is
expected and what it costs (overload resolution picks the cheapest candidate),
following DXC: exact match, then promotion within a kind, then conversion
between kinds and scalar splats, then truncation of vectors (allowed, warned).
"""

from __future__ import annotations

from . import hlsl_types as T

EXACT = 0
PROMOTION = 1
CONVERSION = 2
SPLAT = 3
TRUNCATION = 5


class ErrorType(T.Type):
    """The type of an expression that already produced an error.

    It converts to and from anything silently, so one mistake is reported once
    rather than again by every expression built on it. It never outlives sema:
    a program with an error stops at the end of the front end.
    """

    __slots__ = ()

    def __str__(self) -> str:
        return "<error>"


ERROR = ErrorType()


def scalar_cost(source: T.ScalarType, target: T.ScalarType) -> int:
    if source == target:
        return EXACT
    if source.kind == target.kind and source.bits < target.bits:
        return PROMOTION
    return CONVERSION


def conversion_cost(source: T.Type, target: T.Type) -> int | None:
    """The cost of converting ``source`` to ``target`` implicitly, or None if not allowed."""
    if source == target or source is ERROR or target is ERROR:
        return EXACT
    if isinstance(source, T.ArrayType) or isinstance(target, T.ArrayType):
        if isinstance(source, T.ArrayType) and isinstance(target, T.ArrayType):
            if source.size == target.size or target.size is None:
                return conversion_cost(source.element, target.element)
        return None
    if isinstance(source, T.StructType) and source.derives_from(target):
        return CONVERSION  # a derived struct passes for its base (its first fields)
    if isinstance(source, T.ResourceType) and isinstance(target, T.ResourceType):
        same = source.kind == target.kind and source.element == target.element
        return EXACT if same else None
    source_element, target_element = T.element_of(source), T.element_of(target)
    if source_element is None or target_element is None:
        return None
    element_cost = scalar_cost(source_element, target_element)
    source_n, target_n = shape_of(source), shape_of(target)
    if source_n == target_n:
        return element_cost
    if source_n == (1, 1):
        return max(element_cost, SPLAT)
    if isinstance(source, T.MatrixType) != isinstance(target, T.MatrixType) and target_n != (1, 1):
        # vector <-> matrix only when the component counts agree (float4 <-> float2x2)
        return max(element_cost, CONVERSION) if source.components == target.components else None
    if target_n[0] <= source_n[0] and target_n[1] <= source_n[1]:
        return max(element_cost, TRUNCATION)
    return None


def shape_of(t: T.Type) -> tuple[int, int]:
    """(rows, cols) of a numeric type: scalars (1, 1), vectors (1, n)."""
    if isinstance(t, T.MatrixType):
        return (t.rows, t.cols)
    if isinstance(t, T.VectorType):
        return (1, t.size)
    return (1, 1)


def flat_count(t: T.Type) -> int | None:
    """How many scalars ``t`` holds, flattened (arrays of numbers, vectors, matrices); None if
    it is not made of numbers alone or is unbounded."""
    if isinstance(t, T.ArrayType):
        inner = flat_count(t.element)
        return None if inner is None or t.size is None else t.size * inner
    return t.components if t.is_numeric else None


def with_shape(element: T.ScalarType, shape: tuple[int, int], matrix: bool) -> T.Type:
    rows, cols = shape
    if matrix:
        return T.MatrixType(element, rows, cols)
    return T.vector(element, cols)


def binary_shape(left: T.Type, right: T.Type) -> tuple[tuple[int, int], bool, bool] | None:
    """The shape of an element-wise binary operation: (shape, is_matrix, truncated).

    A scalar operand splats; otherwise the smaller shape wins and the larger
    operand is truncated (DXC warns). Returns None for incompatible shapes.
    """
    left_shape, right_shape = shape_of(left), shape_of(right)
    is_matrix = isinstance(left, T.MatrixType) or isinstance(right, T.MatrixType)
    if left_shape == right_shape:
        return left_shape, is_matrix, False
    if left_shape == (1, 1):
        return right_shape, isinstance(right, T.MatrixType), False
    if right_shape == (1, 1):
        return left_shape, isinstance(left, T.MatrixType), False
    if isinstance(left, T.MatrixType) != isinstance(right, T.MatrixType):
        return None
    shape = (min(left_shape[0], right_shape[0]), min(left_shape[1], right_shape[1]))
    return shape, is_matrix, True


SWIZZLE_SETS = ("xyzw", "rgba")


def parse_swizzle(name: str, size: int) -> tuple[int, ...] | None:
    """Component indexes of ``v.name`` for a ``size``-component vector, or None."""
    if not 1 <= len(name) <= 4:
        return None
    for letters in SWIZZLE_SETS:
        if all(ch in letters for ch in name):
            indexes = tuple(letters.index(ch) for ch in name)
            return indexes if max(indexes) < size else None
    return None


def parse_matrix_swizzle(name: str, rows: int, cols: int) -> tuple[int, ...] | None:
    """``m._m00_m11`` (zero-based) or ``m._11_22`` (one-based) as flat row-major indexes."""
    if not name.startswith("_"):
        return None
    indexes: list[int] = []
    for part in name.split("_")[1:]:
        if part.startswith("m") and len(part) == 3 and part[1:].isdigit():
            row, col = int(part[1]), int(part[2])
        elif len(part) == 2 and part.isdigit():
            row, col = int(part[0]) - 1, int(part[1]) - 1
        else:
            return None
        if not (0 <= row < rows and 0 <= col < cols):
            return None
        indexes.append(row * cols + col)
    return tuple(indexes) if 1 <= len(indexes) <= 4 else None
