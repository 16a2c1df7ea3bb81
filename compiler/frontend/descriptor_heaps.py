"""SM 6.6 dynamic resources: ``ResourceDescriptorHeap[i]`` and ``SamplerDescriptorHeap[i]``.

An element of a heap has no type of its own: the local variable it initialises gives it one
(``RWStructuredBuffer<uint> b = ResourceDescriptorHeap[i];``). shc models a heap as an
unbounded resource array of that type, declared by the checker as a global named after the
heap (``ResourceDescriptorHeap``), so the rest of the compiler sees an ordinary resource
array and ``NonUniformResourceIndex`` works as it does there. The runtime binds it from a list
of that name and checks each entry against the type.

One type per kernel for now: the executors hold one unbounded resource array per kernel, so a
second heap type (or a heap beside another unbounded array) is a positioned ``Unsupported``.
"""

from __future__ import annotations

from ..diagnostics import Unsupported
from . import ast
from . import hlsl_types as T
from .conversions import ERROR
from .language import DESCRIPTOR_HEAP_MODEL, DESCRIPTOR_HEAPS

HEAP_MODIFIER = "descriptor_heap"  # marks the synthesized declarations (no source spells it)
# The root-signature flag that lets a shader index each heap directly.
HEAP_ROOT_FLAGS = {"ResourceDescriptorHeap": "CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED",
                   "SamplerDescriptorHeap": "SAMPLER_HEAP_DIRECTLY_INDEXED"}


def is_descriptor_heap(decl) -> bool:
    return HEAP_MODIFIER in getattr(decl, "modifiers", ())


def heap_index(expr) -> ast.Index | None:
    """``expr`` when it is ``SomeDescriptorHeap[i]``, else None."""
    if isinstance(expr, ast.Index) and isinstance(expr.obj, ast.Identifier) and expr.obj.name in DESCRIPTOR_HEAPS:
        return expr
    return None


class DescriptorHeapRules:
    """Mixed into the semantic checker (needs its scopes, globals, error and require_model)."""

    def heap_initializer(self, var: ast.VarDecl) -> bool:
        """Rewrite ``R v = <Heap>[i]`` to index the heap's synthesized resource array; True
        when ``var.init`` was a heap element (reported or rewritten), False otherwise."""
        index = heap_index(var.init)
        if index is None or self.scope.lookup(index.obj.name) is not None:
            return False
        name = index.obj.name
        if not self.require_model(f"'{name}'", DESCRIPTOR_HEAP_MODEL, index.obj.coord):
            return True
        if var.type is ERROR:
            return True
        wanted = T.SamplerType if name == "SamplerDescriptorHeap" else T.ResourceType
        if isinstance(var.type, T.ArrayType) or not isinstance(var.type, wanted):
            what = "sampler" if wanted is T.SamplerType else "resource (not a sampler)"
            self.error(f"an element of '{name}' initializes a {what} variable, not '{var.type}'", index.obj.coord)
            return True
        heap = self._heap_array(name, var.type, index.obj.coord)
        index.obj.decl = heap
        index.obj.type = heap.type
        index.type = self.index_of(index, heap.type, self.visit(index.index))
        self.convert(index.type, var.type, var.init.coord)
        return True

    def _heap_array(self, name: str, element: T.Type, coord) -> ast.VarDecl:
        heaps: dict[str, ast.VarDecl] = self.__dict__.setdefault("descriptor_heaps", {})
        existing = heaps.get(name)
        if existing is not None:
            if existing.type.element != element:
                raise Unsupported(f"'{name}' is read as '{existing.type.element}' and as '{element}': shc "
                                  f"supports one type per descriptor heap", coord)
            return existing
        other = [decl for decl in self.global_vars if decl.storage == "resource"
                 and isinstance(decl.type, T.ArrayType) and decl.type.size is None]
        if other:
            raise Unsupported(f"'{name}' beside the unbounded resource array '{other[0].name}': shc supports "
                              f"one unbounded resource array (descriptor heaps included) per kernel", coord)
        spec = ast.TypeSpec(str(element), coord=coord, resolved=element)
        decl = ast.VarDecl(spec, name, dims=[None], modifiers=[HEAP_MODIFIER], coord=coord,
                           type=T.ArrayType(element, None), storage="resource")
        heaps[name] = decl
        self.global_vars.append(decl)
        return decl

    def heap_declarations(self) -> list[ast.DeclStmt]:
        """The synthesized heap arrays, as declarations to append to the translation unit
        (resource layout walks the unit's declarations)."""
        heaps = self.__dict__.get("descriptor_heaps", {})
        return [ast.DeclStmt([decl], coord=decl.coord) for decl in heaps.values()]
