"""Where a kernel's globals live: bindings and registers, constant buffers, groupshared memory.

- Resources, samplers and constant buffers become ``Binding``s. Registers written
  in the source are kept; the others are assigned per register class (t: SRVs and
  tbuffers, u: UAVs, s: samplers, b: constant buffers) in declaration order, each
  taking the lowest free range in space 0, as DXC does. ``$Globals`` (the
  non-static globals) is the first constant buffer. Only what the kernel uses is
  bound, since DXC drops unused resources before assigning registers.
- A ``[RootSignature]`` must cover every register bound here with one range of the right
  kind and space, visible to compute (``check_root_signature``), as DXC's validator asks.
- Constant buffers use HLSL's packing: 16-byte rows, a scalar or vector never
  crosses a row, arrays and structs start on a row, array elements are a row
  apart, a struct's size is rounded up to whole rows (``cbuffer_offsets``).
- Groupshared variables, scratch and structured-buffer elements are packed tightly
  with natural alignment (``tight_size``, ``tight_offsets``); each groupshared
  variable starts on a 4-byte boundary, the largest first.
- Matrices in memory are ``StoredMatrix`` types: a matrix and its orientation.
  ``column_major`` (HLSL's default) stores the columns one after another, ``row_major``
  the rows. In a constant buffer each stored vector is one 16-byte row (a float3x4 takes
  3 * 16 + 12 bytes column_major, 2 * 16 + 16 row_major) and a matrix of one stored
  vector is placed like that vector; elsewhere they are packed tightly. Constant
  buffers and structured buffers follow DXC: column_major unless the member (or the
  struct field) says ``row_major``; DXC ignores the modifier in a template argument
  (``StructuredBuffer<row_major float4x4>``, DXC issue #1803) and so does shc, and
  ``#pragma pack_matrix`` is not honoured. Groupshared and scratch matrices, which
  only the kernel sees, are stored row_major, so a row is one vector access.
  ``Globals.stored(t, row_major)`` turns a declared type into its memory type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...diagnostics import Diagnostics
from ...frontend import ast
from ...frontend import hlsl_types as T
from ...frontend.descriptor_heaps import HEAP_ROOT_FLAGS, is_descriptor_heap
from ...frontend.root_signature import register_text
from ..core import Binding, GroupsharedVar
from .memory_layout import (ROW, StoredMatrix, cbuffer_offsets, cbuffer_place, cbuffer_size, cbuffer_stride,  # noqa: F401
                            round_up, scalar_bytes, stored_type, tight_align, tight_offsets, tight_size, tight_stride)

_PACKOFFSET = re.compile(r"c(\d+)(?:\.([xyzw]))?$")


def packoffset_bytes(text: str) -> int | None:
    match = _PACKOFFSET.match(text.strip())
    if match is None:
        return None
    return int(match[1]) * ROW + ("xyzw".index(match[2]) * 4 if match[2] else 0)


# ------------------------------------------------------------------ globals
@dataclass(eq=False)  # one of a kind: compared by identity
class Globals:
    """The lowered view of a program's globals."""

    bindings: list[Binding] = field(default_factory=list)
    binding_of: dict[ast.Node, Binding] = field(default_factory=dict)  # VarDecl / CBuffer -> binding
    cbuffer_member: dict[ast.VarDecl, tuple[str, int]] = field(default_factory=dict)  # -> (buffer, offset)
    groupshared: dict[ast.VarDecl, GroupsharedVar] = field(default_factory=dict)
    # (struct name, field name) -> row_major, for the matrix fields that name an orientation
    orientations: dict[tuple[str, str], bool] = field(default_factory=dict)

    def stored(self, t: T.Type, row_major: bool = False) -> T.Type:
        """``t`` as memory holds it (``memory_layout.stored_type`` with these orientations)."""
        return stored_type(t, self.orientations, row_major)


def row_major(decl) -> bool:
    """Whether a declaration's matrices are row_major (column_major is the default)."""
    return "row_major" in getattr(decl, "modifiers", ())


def is_constant_buffer_object(decl: ast.VarDecl) -> bool:
    """``ConstantBuffer<S> name``: sema types it as the struct S."""
    return decl.type_spec.name == "ConstantBuffer"


def register_class(decl: ast.Node) -> str:
    if isinstance(decl, ast.CBuffer):
        return "t" if decl.kind == "tbuffer" else "b"
    if is_constant_buffer_object(decl):
        return "b"
    base = decl.type
    while isinstance(base, T.ArrayType):
        base = base.element
    if isinstance(base, T.SamplerType):
        return "s"
    return "u" if base.writable else "t"


def array_count(t: T.Type) -> int | None:
    count = 1
    while isinstance(t, T.ArrayType):
        if t.size is None:
            return None
        count *= t.size
        t = t.element
    return count


def innermost(t: T.Type) -> T.Type:
    while isinstance(t, T.ArrayType):
        t = t.element
    return t


class _Registers:
    """Occupied register ranges per (class, space)."""

    def __init__(self) -> None:
        self.used: dict[tuple[str, int], list[tuple[int, int | None]]] = {}

    def take(self, cls: str, space: int, start: int, count: int | None) -> None:
        self.used.setdefault((cls, space), []).append((start, count))

    def free(self, cls: str, space: int, count: int | None) -> int:
        ranges = self.used.get((cls, space), [])
        if count is None:
            return max((start + (n or 1) for start, n in ranges), default=0)
        start = 0
        while True:
            clash = [(s, n) for s, n in ranges
                     if s < start + count and (n is None or start < s + n)]
            if not clash:
                return start
            start = max(s + (n or 1) for s, n in clash)


def layout_globals(program, used: set, diagnostics: Diagnostics) -> Globals:
    """Bindings, cbuffer offsets and groupshared offsets for the globals in ``used``."""
    result = Globals()
    _read_orientations(result, program.unit)
    pending: list[tuple[ast.Node, Binding, ast.Register | None]] = []
    uniforms = [decl for decl in program.globals if decl.storage == "uniform"
                and not is_constant_buffer_object(decl)]
    if any(decl in used for decl in uniforms):
        _cbuffer_members(result, "$Globals", uniforms, diagnostics)
        binding = Binding("$Globals", "cbuffer", None, "")
        pending.append((uniforms[0], binding, None))
    shared: list[ast.VarDecl] = []
    for decl in _declaration_order(program.unit):
        if isinstance(decl, ast.CBuffer):
            if not any(member in used for member in decl.members):
                continue
            _cbuffer_members(result, decl.name, decl.members, diagnostics)
            binding = Binding(decl.name, decl.kind, None, "")
            pending.append((decl, binding, decl.register))
        elif decl.storage == "resource" and decl in used:
            base = innermost(decl.type)
            kind = base.kind
            element = base.element if isinstance(base, T.ResourceType) else None
            coherent = isinstance(base, T.ResourceType) and base.globally_coherent
            binding = Binding(decl.name, kind, element, "", 0, array_count(decl.type), coherent)
            pending.append((decl, binding, decl.register))
        elif decl.storage == "uniform" and is_constant_buffer_object(decl) and decl in used:
            result.cbuffer_member[decl] = (decl.name, 0)
            binding = Binding(decl.name, "ConstantBuffer", None, "")
            pending.append((decl, binding, decl.register))
        elif decl.storage == "groupshared" and decl in used:
            shared.append(decl)
    # largest first (as LLVM's LDS lowering sorts): big arrays start on aligned offsets, so
    # SPD's four 1 KiB planes sit 1 KiB apart from 0 and pair as ds_read2st64 with no rebasing
    for decl in sorted(shared, key=lambda decl: -tight_size(decl.type)):
        _place_groupshared(result, decl)
    _assign_registers(pending)
    for decl, binding, _ in pending:
        result.bindings.append(binding)
        result.binding_of[decl] = binding
    if program.root_signature is not None:
        check_root_signature(program.root_signature, pending, diagnostics)
    return result


def check_root_signature(signature, pending, diagnostics: Diagnostics) -> None:
    """An error at each binding's declaration whose registers no range of ``signature`` holds
    (a descriptor heap needs the signature's flag for indexing it directly instead)."""
    for decl, binding, _ in pending:
        if is_descriptor_heap(decl):
            flag = HEAP_ROOT_FLAGS[decl.name]
            if flag not in signature.flags:
                diagnostics.error(f"'{decl.name}' needs RootFlags({flag}) in the root signature", decl.coord)
            continue
        kind, start = binding.register[0], int(binding.register[1:])
        if not signature.covers(kind, start, binding.count, binding.space):
            diagnostics.error(f"resource '{binding.name}' at {register_text(kind, start, binding.count)}, "
                              f"space {binding.space} is not bound in the root signature", decl.coord)


def _declaration_order(unit: ast.TranslationUnit):
    for decl in unit.decls:
        if isinstance(decl, ast.CBuffer):
            yield decl
        elif isinstance(decl, ast.DeclStmt):
            for var in decl.decls:
                if isinstance(var, ast.VarDecl):
                    yield var


def _read_orientations(result: Globals, unit: ast.TranslationUnit) -> None:
    """The struct fields that say ``row_major`` or ``column_major``."""
    structs = [decl for decl in unit.decls if isinstance(decl, ast.StructDecl)]
    structs += [inner for decl in unit.decls if isinstance(decl, ast.DeclStmt)
                for inner in decl.decls if isinstance(inner, ast.StructDecl)]
    for struct in structs:
        for member in struct.members:
            if "row_major" in member.modifiers or "column_major" in member.modifiers:
                result.orientations[(struct.name, member.name)] = row_major(member)


def _cbuffer_members(result: Globals, name: str, members: list[ast.VarDecl], diagnostics: Diagnostics) -> None:
    offset = 0
    for member in members:
        stored = result.stored(member.type, row_major(member))
        start = cbuffer_place(offset, stored)
        if member.packoffset:
            explicit = packoffset_bytes(member.packoffset)
            if explicit is None:
                diagnostics.error(f"cannot read packoffset '{member.packoffset}'", member.coord)
            else:
                start = explicit
        result.cbuffer_member[member] = (name, start)
        offset = start + cbuffer_size(stored)


def _place_groupshared(result: Globals, decl: ast.VarDecl) -> None:
    end = max((var.offset + var.size for var in result.groupshared.values()), default=0)
    offset = round_up(end, 4)
    result.groupshared[decl] = GroupsharedVar(decl.name, decl.type, offset, tight_size(decl.type))


def _assign_registers(pending: list[tuple[ast.Node, Binding, ast.Register | None]]) -> None:
    registers = _Registers()
    for decl, binding, register in pending:
        if register is not None:
            binding.register = f"{register.kind}{register.index}"
            binding.space = register.space
            registers.take(register.kind, register.space, register.index, binding.count)
    for decl, binding, register in pending:
        if register is None:
            cls = register_class(decl) if binding.name != "$Globals" else "b"
            start = registers.free(cls, 0, binding.count)
            registers.take(cls, 0, start, binding.count)
            binding.register = f"{cls}{start}"
