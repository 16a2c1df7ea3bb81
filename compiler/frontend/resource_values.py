"""Local resource values: what the checker allows beyond global resource declarations.

As in DXC, a resource may live in a local variable, a local array (``RWBuffer<uint>
arr[2] = { a, b };``) or a struct member, and may be reassigned; lowering tracks which
global resource each one names (lower/resource_cells.py) and rejects a use it cannot
resolve. Here the checker only decides where resource-holding types may appear:
never in memory that outlives the thread's registers (buffer elements, constant
buffers, groupshared variables).
"""

from __future__ import annotations

from . import ast
from . import hlsl_types as T
from .conversions import ERROR


def holds_resource(t: T.Type) -> bool:
    """Whether a value of type ``t`` is or contains a resource or sampler."""
    if isinstance(t, (T.ResourceType, T.SamplerType)):
        return True
    if isinstance(t, T.ArrayType):
        return holds_resource(t.element)
    if isinstance(t, T.StructType):
        return any(holds_resource(field_type) for _, field_type in t.fields)
    return False


class ResourceValueRules:
    """Mixin for the checker: resource-holding types in initializer lists and storage."""

    def check_resource_init_list(self, init: ast.InitList, target: T.Type) -> T.Type:
        """``{ a, b }`` for a local array of resources: one resource of the element type per item."""
        element = target.element
        if isinstance(target, T.ArrayType) and target.size is None:
            target = T.ArrayType(element, len(init.items))
        init.type = target
        for item in init.items:
            item_type = T.INIT_LIST if isinstance(item, ast.InitList) else self.visit(item)
            if item_type != element and item_type is not ERROR:
                self.error(f"cannot initialize an element of '{target}' with '{item_type}'", item.coord)
        if target.size is not None and len(init.items) != target.size:
            self.error(f"initializer list has {len(init.items)} values but '{target}' needs {target.size}",
                       init.coord)
        return target

    def check_resource_storage(self, var: ast.VarDecl) -> None:
        """A struct holding a resource lives only in a function's local variables (shc's limit:
        a global one would be resources bound per member)."""
        if isinstance(innermost_of(var.type), (T.ResourceType, T.SamplerType)) or not holds_resource(var.type):
            return
        if var.storage not in ("local", None):
            self.error(f"a struct holding a resource must be a local variable, not {var.storage}", var.coord)

    def check_buffer_element(self, element: T.Type, coord) -> None:
        """``StructuredBuffer<S>``: memory cannot hold a resource."""
        if element is not None and holds_resource(element):
            self.error(f"the buffer element '{element}' holds a resource", coord)


def innermost_of(t: T.Type) -> T.Type:
    while isinstance(t, T.ArrayType):
        t = t.element
    return t
