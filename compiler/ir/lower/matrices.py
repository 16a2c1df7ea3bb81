"""Matrices: SSA aggregates of their rows, element-wise arithmetic a row at a time,
``mul`` in every HLSL shape, swizzles, conversions, and matrices in memory.

A ``floatRxC`` value is an IR ``ArrayType`` of R rows of type ``vector(float, C)``
(``float3x4`` is ``float4[3]``; ``float4x1`` is ``float[4]``), so every back end and
the interpreter handle it through ``construct``/``extract``/``insert``; nothing
downstream knows matrices exist.

- Element-wise operators and intrinsics (``+ - * / % & | ^ << >>``, comparisons,
  ``-m``, ``!m``, ``abs``, ``sqrt``, ``clamp``, ``lerp``...) run on each row:
  ``emit_op`` extracts the rows, emits the op on the row type and constructs the
  result. (``m1 * m2`` is element-wise, as in HLSL; ``mul`` is the product.)
- ``mul(v, M)`` = sum over r of ``v[r] * M[r]`` (mul and add on rows);
  ``mul(M, v)`` = ``dot`` of each row with v; ``mul(A, B)``: each row of A times B;
  a scalar scales every row. ``transpose`` gathers columns into rows.
- ``m[i]`` is row i, ``m[i][j]`` an element; a dynamic ``i`` on a matrix held in
  SSA values is a chain of ``select``s over the rows (reads) or a ``select`` per row
  (writes), so matrices never go to scratch memory. ``m._m01_m10`` / ``m._12_21``
  is an ``elements`` step of (row, column) pairs.
- Conversions (HLSL's rules, sema has checked them): a scalar splats to every
  element; a matrix truncates to its top-left block (a vector target takes row 0);
  between a vector and a matrix of the same component count the components are
  taken in row-major order (``float2x2(v4)``, ``(float4)m2x2``).
- In memory a matrix is a ``StoredMatrix`` (lower/globals.py: column_major or
  row_major, constant-buffer rows or tight packing). A load or store reaches only
  the elements it names: each stored vector (a column, column_major) is read once
  over the span of components needed; stores write runs of consecutive components.
"""

from __future__ import annotations

from ...diagnostics import Coord
from ...frontend import hlsl_types as T
from ..core import Inst
from .globals import ROW, StoredMatrix, scalar_bytes
from .places import CBufferRoot, ElementRoot
from .values import Unsupported, components, matrix_shape
from ..ops import Op


def scalar_element(t: T.Type) -> T.ScalarType:
    while not isinstance(t, T.ScalarType):
        t = t.element
    return t


def with_scalar(t: T.Type, element: T.ScalarType) -> T.Type:
    """``t`` (scalar, vector or matrix rows) with its scalar element replaced."""
    if isinstance(t, T.ArrayType):
        return T.ArrayType(with_scalar(t.element, element), t.size)
    return T.with_element(t, element)


class MatrixLowering:
    """Mixin: matrix values and matrices in memory (see the module docstring)."""

    # ------------------------------------------------------------ arithmetic
    def emit_op(self, op: Op, operands: list[Inst], result: T.Type, attrs: dict | None, coord: Coord) -> Inst:
        """``op`` on scalars or vectors, or a row at a time when ``result`` is a matrix."""
        if matrix_shape(result) is None:
            return self.b.emit(op, operands, result, attrs, coord)
        rows = []
        for r in range(result.size):
            row_operands = [self.extract(operand, r, coord) if isinstance(operand.type, T.ArrayType) else operand
                            for operand in operands]
            rows.append(self.b.emit(op, row_operands, result.element, attrs, coord))
        return self.b.emit(Op.CONSTRUCT, rows, result, None, coord)

    def mul_product(self, a: Inst, b: Inst, result: T.Type, coord: Coord) -> Inst:
        """``mul(a, b)`` with at least one matrix operand."""
        a_shape, b_shape = matrix_shape(a.type), matrix_shape(b.type)
        if a_shape is None and b_shape is None:
            raise Unsupported("mul without a matrix here", coord)
        if b_shape is None and isinstance(b.type, T.ScalarType) and not isinstance(a.type, T.ScalarType):
            return self.emit_op(Op.MUL, [a, self.convert(b, result.element, coord)], result, None, coord)
        if a_shape is None and isinstance(a.type, T.ScalarType) and b_shape is not None and result == b.type:
            return self.emit_op(Op.MUL, [self.convert(a, result.element, coord), b], result, None, coord)
        if a_shape is None:
            return self.vector_times_matrix(a, b, coord)
        if b_shape is None:
            rows = [self.row_dot(self.extract(a, r, coord), b, coord) for r in range(a_shape[0])]
            return self.construct(rows, result, coord)
        rows = [self.vector_times_matrix(self.extract(a, r, coord), b, coord) for r in range(a_shape[0])]
        return self.b.emit(Op.CONSTRUCT, rows, result, None, coord)

    def vector_times_matrix(self, v: Inst, m: Inst, coord: Coord) -> Inst:
        """``mul(v, M)``: the sum of ``v[r] * M[r]`` over the rows, in row order."""
        row_type = m.type.element
        total = None
        for r in range(m.type.size):
            weight = self.convert(self.extract(v, r, coord), row_type, coord)
            term = self.b.emit(Op.MUL, [weight, self.extract(m, r, coord)], row_type, None, coord)
            total = term if total is None else self.b.emit(Op.ADD, [total, term], row_type, None, coord)
        return total

    def row_dot(self, row: Inst, v: Inst, coord: Coord) -> Inst:
        if isinstance(row.type, T.ScalarType):
            return self.b.emit(Op.MUL, [row, self.convert(v, row.type, coord)], row.type, None, coord)
        return self.b.emit(Op.DOT, [row, v], row.type.element, None, coord)

    def transpose(self, m: Inst, coord: Coord) -> Inst:
        rows, cols = matrix_shape(m.type)
        element = scalar_element(m.type)
        result = T.ArrayType(T.vector(element, rows), cols)
        columns = [self.construct([self.matrix_element(m, r, c, coord) for r in range(rows)], result.element, coord)
                   for c in range(cols)]
        return self.b.emit(Op.CONSTRUCT, columns, result, None, coord)

    # ----------------------------------------------------------- conversions
    def convert_matrix(self, value: Inst, target: T.Type, coord: Coord) -> Inst | None:
        """A conversion to or from a matrix that changes its shape (None: not such a conversion)."""
        source = value.type
        source_shape, target_shape = matrix_shape(source), matrix_shape(target)
        if source_shape is None and target_shape is None:
            return None
        if target_shape is not None:
            rows, cols = target_shape
            if isinstance(source, T.ScalarType):
                row = self.convert(value, target.element, coord)
                return self.b.emit(Op.CONSTRUCT, [row] * rows, target, None, coord)
            if source_shape is not None:
                if source_shape[0] < rows or source_shape[1] < cols:
                    return None
                parts = [self.convert(self.extract(value, r, coord), target.element, coord) for r in range(rows)]
                return self.b.emit(Op.CONSTRUCT, parts, target, None, coord)
            if not isinstance(source, T.VectorType) or source.size != rows * cols:
                return None
            scalars = [self.extract(value, k, coord) for k in range(source.size)]
            return self.rows_from_scalars(scalars, target, coord)
        if not isinstance(target, (T.ScalarType, T.VectorType)):
            return None
        rows, cols = source_shape
        if components(target) == rows * cols:
            scalars = [self.matrix_element(value, r, c, coord) for r in range(rows) for c in range(cols)]
            scalars = [self.convert(scalar, target.element, coord) for scalar in scalars]
            return self.construct(scalars, target, coord)
        return self.convert(self.extract(value, 0, coord), target, coord)

    def rows_from_scalars(self, scalars: list[Inst], target: T.ArrayType, coord: Coord) -> Inst:
        """A matrix from its elements in row-major order, each converted to the element type."""
        rows, cols = matrix_shape(target)
        element = scalar_element(target)
        converted = [self.convert(scalar, element, coord) for scalar in scalars]
        parts = [self.construct(converted[r * cols:(r + 1) * cols], target.element, coord) for r in range(rows)]
        return self.b.emit(Op.CONSTRUCT, parts, target, None, coord)

    # -------------------------------------------------------- SSA elements
    def matrix_element(self, value: Inst, row, col, coord: Coord) -> Inst:
        """Element (row, col) of a matrix value; either index may be dynamic."""
        line = self.extract(value, row, coord) if isinstance(row, int) else self.select_element(value, row, coord)
        if isinstance(line.type, T.ScalarType):
            return line
        if isinstance(col, int):
            return self.extract(line, col, coord)
        return self.b.emit(Op.EXTRACT, [line, col], line.type.element, None, coord)

    def matrix_elements(self, value: Inst, pairs: list, coord: Coord) -> Inst:
        """``m._m01_m10``: the elements at (row, col) ``pairs``, as a scalar or a vector."""
        parts = [self.matrix_element(value, row, col, coord) for row, col in pairs]
        if len(parts) == 1:
            return parts[0]
        return self.construct(parts, T.VectorType(parts[0].type, len(parts)), coord)

    def set_matrix_elements(self, old: Inst, pairs: list, value: Inst, coord: Coord) -> Inst:
        """``old`` with the elements at ``pairs`` replaced by the components of ``value``."""
        for k, (row, col) in enumerate(pairs):
            part = value if len(pairs) == 1 else self.extract(value, k, coord)
            line = self.extract(old, row, coord)
            line = part if isinstance(line.type, T.ScalarType) else self.insert(line, part, col, coord)
            old = self.insert(old, line, row, coord)
        return old

    def select_element(self, value: Inst, index: Inst, coord: Coord) -> Inst:
        """``value[index]`` of an array held in SSA values (a matrix's rows), ``index`` dynamic:
        a chain of selects, element 0 for an index out of range."""
        element = value.type.element
        if not isinstance(element, (T.ScalarType, T.VectorType)):
            raise Unsupported("a dynamic index into a temporary array", coord)
        result = self.extract(value, 0, coord)
        for k in range(1, value.type.size or 0):
            hit = self.b.emit(Op.EQ, [index, self.uint_const(k, coord)], T.BOOL, None, coord)
            result = self.b.emit(Op.SELECT, [hit, self.extract(value, k, coord), result], element, None, coord)
        return result

    def replace_element(self, old: Inst, index: Inst, steps: list, value: Inst, coord: Coord) -> Inst:
        """``old`` with the part ``steps`` name of element ``index`` (dynamic) replaced by
        ``value``: each element updated, then a select between it and the old one."""
        element = old.type.element
        if not isinstance(element, (T.ScalarType, T.VectorType)):
            raise Unsupported("a dynamic index into a temporary array", coord)
        parts = []
        for k in range(old.type.size or 0):
            current = self.extract(old, k, coord)
            updated = self.insert_path(current, steps, value, coord) if steps else value
            hit = self.b.emit(Op.EQ, [index, self.uint_const(k, coord)], T.BOOL, None, coord)
            parts.append(self.b.emit(Op.SELECT, [hit, updated, current], element, None, coord))
        return self.b.emit(Op.CONSTRUCT, parts, old.type, None, coord)

    # -------------------------------------------------------------- memory
    @staticmethod
    def matrix_selection(matrix: T.MatrixType, steps: list) -> tuple[list, list]:
        """The (row, col) pairs that place steps on a matrix reach, and the steps left over."""
        rows, cols = matrix.rows, matrix.cols
        if not steps:
            return [(r, c) for r in range(rows) for c in range(cols)], []
        first, rest = steps[0], steps[1:]
        if first.kind == "elements":
            return list(first.index), rest
        row = first.index
        if cols > 1 and rest and rest[0].kind == "index":
            return [(row, rest[0].index)], rest[1:]
        if cols > 1 and rest and rest[0].kind == "swizzle":
            return [(row, lane) for lane in rest[0].index], rest[1:]
        return [(row, c) for c in range(cols)], rest

    def element_addresses(self, root, address, stored: StoredMatrix, pairs: list, coord: Coord) -> list:
        """The address of each (row, col) element of a matrix stored at ``address``."""
        size = scalar_bytes(stored.element)
        stride = ROW if isinstance(root, CBufferRoot) else stored.length * size
        addresses = []
        for row, col in pairs:
            vector, component = stored.position(row, col)
            addresses.append(self.advance(self.advance(address, vector, stride, coord), component, size, coord))
        return addresses

    def load_matrix(self, root, address, stored: StoredMatrix, steps: list, coord: Coord) -> Inst:
        """Load what ``steps`` name of a matrix in memory (all of it without steps)."""
        pairs, rest = self.matrix_selection(stored.matrix, steps)
        dynamic = any(isinstance(index, Inst) for pair in pairs for index in pair)
        if dynamic and isinstance(root, ElementRoot):  # buffer elements take constant offsets only
            return self.apply_steps(self.load_matrix(root, address, stored, [], coord), steps, coord)
        parts = self.load_elements(root, address, stored, pairs, coord)
        if not steps:
            rows, cols = stored.matrix.rows, stored.matrix.cols
            element = stored.element
            lines = [self.gather(parts[r * cols:(r + 1) * cols], T.vector(element, cols), coord)
                     for r in range(rows)]
            return self.b.emit(Op.CONSTRUCT, lines, T.ArrayType(T.vector(element, cols), rows), None, coord)
        value = parts[0] if len(parts) == 1 else self.gather(parts, T.VectorType(parts[0].type, len(parts)), coord)
        return self.apply_steps(value, rest, coord)

    def gather(self, parts: list[Inst], t: T.Type, coord: Coord) -> Inst:
        """A vector of ``parts``; the loaded vector itself when they are all of it, in order
        (a row of a row_major matrix, a column of a column_major one)."""
        source = parts[0].operands[0] if parts[0].op is Op.EXTRACT and len(parts[0].operands) == 1 else None
        if source is not None and source.type == t and all(
                part.op is Op.EXTRACT and part.operands == [source] and part.attrs.get("index") == k
                for k, part in enumerate(parts)):
            return source
        return self.construct(parts, t, coord)

    def load_elements(self, root, address, stored: StoredMatrix, pairs: list, coord: Coord) -> list[Inst]:
        """One scalar per pair. Constant positions read each stored vector once, over the
        span of components needed; dynamic ones read their elements one by one."""
        element = stored.element
        positions = [stored.position(row, col) for row, col in pairs]
        if any(isinstance(index, Inst) for position in positions for index in position):
            return [self.load_leaf(root, where, element, coord)
                    for where in self.element_addresses(root, address, stored, pairs, coord)]
        spans: dict[int, tuple[int, int]] = {}
        for vector, component in positions:
            low, high = spans.get(vector, (component, component))
            spans[vector] = (min(low, component), max(high, component))
        loaded = {}
        for vector, (low, high) in spans.items():
            (start,) = self.element_addresses(root, address, stored, [_pair_at(stored, vector, low)], coord)
            loaded[vector] = (low, self.load_leaf(root, start, T.vector(element, high - low + 1), coord))
        parts = []
        for vector, component in positions:
            low, value = loaded[vector]
            parts.append(self.extract(value, component - low, coord))
        return parts

    def store_matrix(self, root, address, stored: StoredMatrix, steps: list, value: Inst, coord: Coord) -> None:
        """Store ``value`` into what ``steps`` name of a matrix in memory, writing only those elements."""
        pairs, rest = self.matrix_selection(stored.matrix, steps)
        dynamic = any(isinstance(index, Inst) for pair in pairs for index in pair)
        if dynamic and isinstance(root, ElementRoot):
            whole = self.load_matrix(root, address, stored, [], coord)
            self.store_matrix(root, address, stored, [], self.insert_path(whole, steps, value, coord), coord)
            return
        if rest:  # e.g. m._m00_m11[i] = x: the named elements, modified, written back
            old = self.load_matrix(root, address, stored, steps[:len(steps) - len(rest)], coord)
            value = self.insert_path(old, rest, value, coord)
        if not steps:
            parts = [self.matrix_element(value, row, col, coord) for row, col in pairs]
        elif len(pairs) == 1:
            parts = [value]
        else:
            parts = [self.extract(value, k, coord) for k in range(len(pairs))]
        self.store_elements(root, address, stored, pairs, parts, coord)

    def store_elements(self, root, address, stored: StoredMatrix, pairs: list, parts: list[Inst],
                       coord: Coord) -> None:
        """One store per run of consecutive components of a stored vector."""
        positions = [stored.position(row, col) for row, col in pairs]
        if any(isinstance(index, Inst) for position in positions for index in position):
            for where, part in zip(self.element_addresses(root, address, stored, pairs, coord), parts):
                self.store_leaf(root, where, part, coord)
            return
        ordered = sorted(zip(positions, parts), key=lambda item: item[0])
        runs: list[list] = []
        for (vector, component), part in ordered:
            if runs and runs[-1][-1][0] == (vector, component - 1):
                runs[-1].append(((vector, component), part))
            else:
                runs.append([((vector, component), part)])
        for run in runs:
            (vector, component), _ = run[0]
            (start,) = self.element_addresses(root, address, stored, [_pair_at(stored, vector, component)], coord)
            values = [part for _, part in run]
            block = values[0] if len(values) == 1 else self.construct(
                values, T.VectorType(stored.element, len(values)), coord)
            self.store_leaf(root, start, block, coord)


def _pair_at(stored: StoredMatrix, vector: int, component: int) -> tuple[int, int]:
    """The (row, col) stored at (vector, component)."""
    return (vector, component) if stored.row_major else (component, vector)
