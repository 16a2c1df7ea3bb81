"""The IR's text form (``shc compile --emit ir``); ``reader.py`` parses it back.

    func @main numthreads(64, 1, 1) wave32 {
    ^entry:
      %0 = thread_input uint {which="group_index"}
      %1 = const uint {value=3}
      %2 = add uint %0, %1                                  ; x.hlsl:4:12
      selection ^then ^merge
      cond_br %3, ^then, ^merge
    ...

Values are numbered in block order; a ``loop`` / ``selection`` line before the
terminator records the structured-control-flow annotations of the block.
"""

from __future__ import annotations

from ..diagnostics import display_path
from ..frontend import hlsl_types as T
from .core import Block, Function, Inst, Module


def format_type(t: T.Type) -> str:
    return "void" if t == T.VOID else str(t).replace(" ", "")


def format_attr(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_attr(item) for item in value) + "]"
    return '"' + str(value) + '"'


class Printer:
    def __init__(self, function: Function, show_coords: bool = True):
        self.function = function
        self.show_coords = show_coords
        self.names: dict[Inst, str] = {}
        for inst in function.instructions():
            if inst.type != T.VOID:
                self.names[inst] = f"%{len(self.names)}"

    def value(self, inst: Inst) -> str:
        return self.names.get(inst, "%<undefined>")

    def instruction(self, inst: Inst) -> str:
        text = ""
        if inst.type != T.VOID:
            text = f"{self.value(inst)} = "
        text += inst.op.value
        if inst.type != T.VOID:
            text += " " + format_type(inst.type)
        if inst.op.value == "phi":
            pairs = ", ".join(f"[{self.value(v)}, ^{b.name}]" for v, b in zip(inst.operands, inst.targets))
            text += " " + pairs
        else:
            parts = [self.value(operand) for operand in inst.operands]
            parts += [f"^{target.name}" for target in inst.targets]
            if parts:
                text += " " + ", ".join(parts)
        if inst.attrs:
            text += " {" + ", ".join(f"{key}={format_attr(v)}" for key, v in sorted(inst.attrs.items())) + "}"
        if self.show_coords and inst.coord.line > 0:
            text = f"{text:56} ; {display_path(inst.coord.file)}:{inst.coord.line}:{inst.coord.col}"
        return text

    def block(self, block: Block) -> list[str]:
        lines = [f"^{block.name}:"]
        for inst in block.insts:
            if inst.is_terminator and block.kind is not None:
                lines.append("  " + structure_line(block))
            lines.append("  " + self.instruction(inst))
        return lines

    def function_text(self) -> str:
        func = self.function
        x, y, z = func.numthreads
        lines = [f"func @{func.name} numthreads({x}, {y}, {z}) wave{func.wave_size} {{"]
        for block in func.blocks:
            lines.extend(self.block(block))
        lines.append("}")
        return "\n".join(lines)


def structure_line(block: Block) -> str:
    if block.kind == "loop":
        return f"loop ^{block.merge.name} ^{block.cont.name}"
    return f"{'selection' if block.kind == 'if' else 'switch_merge'} ^{block.merge.name}"


def print_function(function: Function, show_coords: bool = True) -> str:
    return Printer(function, show_coords).function_text()


def struct_types(module: Module) -> list[T.StructType]:
    """Every struct type the module mentions, inner structs before the ones using them."""
    found: list[T.StructType] = []

    def visit(t) -> None:
        if isinstance(t, T.ArrayType):
            visit(t.element)
        elif isinstance(t, T.StructType) and t not in found:
            for _, field_type in t.fields:
                visit(field_type)
            found.append(t)

    for binding in module.bindings:
        visit(binding.element)
    for var in module.groupshared:
        visit(var.type)
    for inst in module.function.instructions():
        visit(inst.type)
    return found


def print_module(module: Module, show_coords: bool = True) -> str:
    lines = []
    for struct in struct_types(module):
        fields = ", ".join(f"{name}: {format_type(field_type)}" for name, field_type in struct.fields)
        lines.append(f"struct @{struct.name} {{ {fields} }}")
    for binding in module.bindings:
        element = f"<{format_type(binding.element)}>" if binding.element is not None else ""
        count = "" if binding.count == 1 else f"[{'' if binding.count is None else binding.count}]"
        coherent = " globallycoherent" if binding.globally_coherent else ""
        lines.append(f"resource @{binding.name}{count} {binding.kind}{element} "
                     f"{binding.register} space{binding.space}{coherent}")
    for var in module.groupshared:
        lines.append(f"groupshared @{var.name} {format_type(var.type)} offset {var.offset} size {var.size}")
    if module.scratch_bytes:
        lines.append(f"scratch {module.scratch_bytes}")
    lines.append(print_function(module.function, show_coords))
    return "\n".join(lines) + "\n"
