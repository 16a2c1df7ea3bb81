"""How memory holds HLSL types: tightly packed, or in constant-buffer rows.

- Groupshared variables, scratch and structured-buffer elements are packed tightly
  with natural alignment (``tight_size``, ``tight_offsets``).
- Constant buffers use HLSL's packing: 16-byte rows, a scalar or vector never
  crosses a row, arrays and structs start on a row, array elements are a row
  apart, a struct's size is rounded up to whole rows (``cbuffer_offsets``).
- Matrices in memory are ``StoredMatrix`` types: a matrix and its orientation
  (``globals.py`` says which orientation each declaration gets).

Only ``hlsl_types`` is needed here, so the runtime reads a cached kernel's layouts
without loading the rest of lowering.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...frontend import hlsl_types as T

ROW = 16


@dataclass(frozen=True, slots=True)
class StoredMatrix(T.Type):
    """A matrix as memory holds it: its stored vectors are its columns (column_major) or rows."""

    matrix: T.MatrixType
    row_major: bool

    def __str__(self) -> str:
        return f"{'row_major' if self.row_major else 'column_major'} {self.matrix}"

    @property
    def element(self) -> T.ScalarType:
        return self.matrix.element

    @property
    def components(self) -> int:
        return self.matrix.components

    @property
    def vectors(self) -> int:
        """How many vectors memory holds: the rows (row_major) or the columns."""
        return self.matrix.rows if self.row_major else self.matrix.cols

    @property
    def length(self) -> int:
        """Components per stored vector."""
        return self.matrix.cols if self.row_major else self.matrix.rows

    @property
    def vector_type(self) -> T.Type:
        return T.vector(self.matrix.element, self.length)

    def position(self, row, col):
        """(stored vector, component) of element (row, col); either may be an IR value."""
        return (row, col) if self.row_major else (col, row)


def round_up(value: int, align: int) -> int:
    return (value + align - 1) // align * align


def scalar_bytes(element: T.ScalarType) -> int:
    return 4 if element.kind == "bool" else element.bits // 8


# ------------------------------------------------------------ tight layout
def tight_align(t: T.Type) -> int:
    if isinstance(t, (T.ScalarType, T.VectorType, T.MatrixType, StoredMatrix)):
        return scalar_bytes(t.element)
    if isinstance(t, T.ArrayType):
        return tight_align(t.element)
    if isinstance(t, T.StructType):
        return max((tight_align(field_type) for _, field_type in t.fields), default=1)
    return 4


def tight_size(t: T.Type) -> int:
    if isinstance(t, T.ScalarType):
        return scalar_bytes(t)
    if isinstance(t, T.VectorType):
        return t.size * scalar_bytes(t.element)
    if isinstance(t, (T.MatrixType, StoredMatrix)):
        return t.components * scalar_bytes(t.element)
    if isinstance(t, T.ArrayType):
        return tight_stride(t) * (t.size or 0)
    if isinstance(t, T.StructType):
        offsets = tight_offsets(t)
        end = offsets[-1] + tight_size(t.fields[-1][1]) if t.fields else 0
        return round_up(end, tight_align(t))
    return 0


def tight_stride(t: T.ArrayType) -> int:
    return round_up(tight_size(t.element), tight_align(t.element))


def tight_offsets(t: T.StructType) -> list[int]:
    offsets, offset = [], 0
    for _, field_type in t.fields:
        offset = round_up(offset, tight_align(field_type))
        offsets.append(offset)
        offset += tight_size(field_type)
    return offsets


# --------------------------------------------------------- constant buffers
def cbuffer_size(t: T.Type) -> int:
    if isinstance(t, (T.ScalarType, T.VectorType)):
        return tight_size(t)
    if isinstance(t, T.MatrixType):
        t = StoredMatrix(t, row_major=False)
    if isinstance(t, StoredMatrix):
        return (t.vectors - 1) * ROW + t.length * scalar_bytes(t.element)
    if isinstance(t, T.ArrayType):
        return cbuffer_stride(t) * ((t.size or 1) - 1) + cbuffer_size(t.element)
    if isinstance(t, T.StructType):
        offsets = cbuffer_offsets(t)
        end = offsets[-1] + cbuffer_size(t.fields[-1][1]) if t.fields else 0
        return round_up(end, ROW)
    return 0


def cbuffer_stride(t: T.ArrayType) -> int:
    return round_up(cbuffer_size(t.element), ROW)


def cbuffer_place(offset: int, t: T.Type) -> int:
    """Where a member of type ``t`` starts when the previous one ended at ``offset``.

    A matrix starts a new row when it stores more than one vector; one stored vector
    (a column_major float3x1, a row_major float1x3) is placed like that vector, as DXC's
    ``AlignCBufferOffset`` does.
    """
    if isinstance(t, T.MatrixType):
        t = StoredMatrix(t, row_major=False)
    if isinstance(t, StoredMatrix) and t.vectors == 1:
        t = t.vector_type
    if isinstance(t, (T.ArrayType, T.StructType, StoredMatrix)):
        return round_up(offset, ROW)
    size = cbuffer_size(t)
    start = round_up(offset, scalar_bytes(t.element))
    if start // ROW != (start + size - 1) // ROW:
        start = round_up(start, ROW)
    return start


def cbuffer_offsets(t: T.StructType) -> list[int]:
    offsets, offset = [], 0
    for _, field_type in t.fields:
        start = cbuffer_place(offset, field_type)
        offsets.append(start)
        offset = start + cbuffer_size(field_type)
    return offsets


def stored_type(t: T.Type, orientations: dict[tuple[str, str], bool], row_major: bool = False) -> T.Type:
    """``t`` as memory holds it: matrices become ``StoredMatrix`` in the orientation
    ``row_major`` says unless their struct field names one in ``orientations`` ((struct,
    field) -> row_major); 1-vectors are scalars."""
    if isinstance(t, T.VectorType) and t.size == 1:
        return t.element
    if isinstance(t, T.MatrixType):
        return StoredMatrix(t, row_major)
    if isinstance(t, T.ArrayType):
        return T.ArrayType(stored_type(t.element, orientations, row_major), t.size)
    if isinstance(t, T.StructType):
        fields = tuple((name, stored_type(field_type, orientations, orientations.get((t.name, name), row_major)))
                       for name, field_type in t.fields)
        if any(new is not old for (_, new), (_, old) in zip(fields, t.fields)):
            return T.StructType(t.name, fields)  # equal to ``t`` (by name): a layout view of it
    return t
