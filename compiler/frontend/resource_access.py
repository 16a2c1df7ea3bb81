"""Sema for the resource accesses that are not plain calls: ``buf.Load<T>(a)`` /
``buf.Store<T>(a, v)`` template arguments, and ``tex.mips[level][pos]``.

A mixin of ``ExpressionChecker`` (``expressions.py``): it uses the checker's ``visit``,
``error``, ``resolve_type``, ``member_of``, ``index_of`` and ``index_resource``.
"""

from __future__ import annotations

from . import ast
from . import hlsl_types as T
from .conversions import ERROR


class ResourceAccessRules:
    """Template arguments of raw-buffer methods and mip-level indexing of textures."""

    def template_argument(self, node: ast.MethodCall) -> T.Type | None:
        """The T of ``buf.Load<T>(...)`` / ``buf.Store<T>(...)``: a numeric or bool scalar,
        vector or matrix, or a struct of them (what a raw buffer holds); None without one."""
        if node.template is None:
            return None
        template = self.resolve_type(node.template)
        if template is ERROR:
            return ERROR
        if isinstance(template, T.ArrayType) or not _plain_struct(template):
            self.error(f"'{node.name}<{template}>': the template argument must be a scalar, vector, "
                       f"matrix or struct of numbers", node.template.coord)
            return ERROR
        node.template_type = template
        return template

    def mips_or_index(self, node: ast.Index) -> T.Type:
        """``x.mips[level][pos]``: on a resource, a texel of a mip level; else (a struct member
        called ``mips``) two ordinary subscripts of a member."""
        level_index = node.obj
        member = level_index.obj
        obj = self.visit(member.obj)
        if isinstance(obj, T.ResourceType):
            return self.index_mips(node, obj)
        member.type = self.member_of(member, obj)
        level_index.type = self.index_of(level_index, member.type, self.visit(level_index.index))
        return self.index_of(node, level_index.type, self.visit(node.index))

    def index_mips(self, node: ast.Index, obj: T.ResourceType) -> T.Type:
        """``tex.mips[level][pos]``: the texel at integer ``pos`` of mip ``level`` (``tex.Load(int3(pos,
        level))``), on read-only non-cube textures. The ``.mips`` member and ``.mips[level]`` are
        typed as the texture itself (lowering reads the whole pattern, lvalues.py the texture)."""
        level_index = node.obj
        member = level_index.obj
        level = self.visit(level_index.index)
        position = self.visit(node.index)
        if not (isinstance(obj, T.ResourceType) and obj.is_texture and not obj.writable
                and obj.kind not in ("TextureCube", "TextureCubeArray")):
            self.error(f"'{obj}' has no '.mips' (only read-only, non-cube textures have mip levels to index)",
                       member.coord)
            return ERROR
        member.type = level_index.type = obj
        if level is not ERROR and not (isinstance(level, T.ScalarType) and level.is_integer):
            self.error(f"a mip level is an integer, not '{level}'", level_index.index.coord)
        return self.index_resource(node, obj, position)


def is_mips_access(node: ast.Index) -> bool:
    """``x.mips[level][pos]`` by its shape (sema checks that ``x`` is a texture)."""
    return isinstance(node.obj, ast.Index) and isinstance(node.obj.obj, ast.Member) and node.obj.obj.name == "mips"


def _plain_struct(t: T.Type) -> bool:
    """A struct whose members are numbers, vectors, matrices, arrays of them or such structs."""
    if isinstance(t, T.ArrayType):
        return _plain_struct(t.element)
    if isinstance(t, T.StructType):
        return bool(t.fields) and all(_plain_struct(field_type) for _, field_type in t.fields)
    return isinstance(t, (T.ScalarType, T.VectorType, T.MatrixType))
