"""Parse the IR's text form (what ``printer.py`` writes) back into a ``Module``.

Passes are tested on IR text alone: read the input, run the pass, print, compare.
Values may be used before the line that defines them (phis, loop back edges);
they are resolved once the whole function is read.
"""

from __future__ import annotations

import ast as python_ast
import re

from ..diagnostics import UNKNOWN, Coord
from ..frontend import hlsl_types as T
from .core import Binding, Block, Function, GroupsharedVar, Inst, Module
from .ops import Op


class ReadError(Exception):
    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


_OPS = {op.value: op for op in Op}
_FUNC = re.compile(r"func @(\w+) numthreads\((\d+), (\d+), (\d+)\) wave(\d+) \{$")
_RESOURCE = re.compile(r"resource @([\w$]+)(\[\d*\])? (\w+)(<[^>]*>)? (\w+) space(\d+)( globallycoherent)?$")
_STRUCT = re.compile(r"struct @(\w+) \{ (.*) \}$")
_GROUPSHARED = re.compile(r"groupshared @(\w+) (\S+) offset (\d+) size (\d+)$")
_ATTR_KEY = re.compile(r"(^|, )(\w+)=")


def parse_type(text: str, structs: dict[str, T.StructType] | None = None) -> T.Type:
    dims = re.findall(r"\[(\d*)\]", text)
    base_text = text.split("[", 1)[0]
    if base_text == "void":
        base: T.Type = T.VOID
    elif base_text in T.BUILTIN_TYPES:
        base = T.BUILTIN_TYPES[base_text]
    elif structs and base_text in structs:
        base = structs[base_text]
    else:
        raise ReadError(f"unknown type '{text}'")
    for dim in reversed(dims):
        base = T.ArrayType(base, int(dim) if dim else None)
    return base


def _parse_attrs(text: str) -> dict:
    body = _ATTR_KEY.sub(lambda m: f'{m.group(1)}"{m.group(2)}":', text)
    body = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", body))
    # The printer writes non-finite floats as Python spells them; 1e999 reads back as inf.
    body = re.sub(r"\binf\b", "1e999", re.sub(r"\bnan\b", '"__nan__"', body))
    try:
        attrs = python_ast.literal_eval("{" + body + "}")
    except (ValueError, SyntaxError) as failure:
        raise ReadError(f"bad attributes {{{text}}}: {failure}") from None
    return {key: _restore_nan(value) for key, value in attrs.items()}


def _restore_nan(value):
    if value == "__nan__":
        return float("nan")
    if isinstance(value, list):
        return [_restore_nan(item) for item in value]
    return value


def _parse_coord(text: str) -> Coord:
    parts = text.strip().rsplit(":", 2)
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        return UNKNOWN
    return Coord(parts[0], int(parts[1]), int(parts[2]))


class _FunctionReader:
    def __init__(self, header: re.Match, structs: dict[str, T.StructType]):
        self.structs = structs
        name, x, y, z, wave = header.groups()
        self.function = Function(name, numthreads=(int(x), int(y), int(z)), wave_size=int(wave))
        self.blocks: dict[str, Block] = {}
        self.values: dict[str, Inst] = {}
        self.pending: list[tuple[Inst, list[str], int]] = []
        self.line_number = 0
        self.current: Block | None = None
        self.structure: dict[Block, tuple[str, list[str]]] = {}

    def block_named(self, name: str) -> Block:
        if name not in self.blocks:
            self.blocks[name] = Block(name)
        return self.blocks[name]

    def line(self, text: str) -> None:
        if text.startswith("^") and text.endswith(":"):
            self.current = self.block_named(text[1:-1])
            self.function.blocks.append(self.current)
            return
        if self.current is None:
            raise ReadError(f"instruction outside a block: {text}")
        words = text.split()
        if words[0] in ("loop", "selection", "switch_merge"):
            self.structure[self.current] = (words[0], [w.lstrip("^") for w in words[1:]])
            return
        self.instruction(text)

    def instruction(self, text: str) -> None:
        code, _, comment = text.partition(" ; ")
        coord = _parse_coord(comment) if comment else UNKNOWN
        attrs = {}
        if code.rstrip().endswith("}") and "{" in code:
            code, _, attr_text = code.rpartition("{")
            attrs = _parse_attrs(attr_text.rstrip().rstrip("}"))
        result = None
        if " = " in code:
            result, code = (part.strip() for part in code.split(" = ", 1))
        words = code.strip().split(None, 1)
        op = _OPS.get(words[0])
        if op is None:
            raise ReadError(f"unknown operation '{words[0]}'")
        rest = words[1] if len(words) > 1 else ""
        type_ = T.VOID
        if result is not None:
            type_text, _, rest = rest.partition(" ")
            type_ = parse_type(type_text, self.structs)
        inst = Inst(op, [], type_, attrs, coord)
        names = []
        if op is Op.PHI:
            for value, block in re.findall(r"\[(%\d+), \^([\w.]+)\]", rest):
                names.append(value)
                inst.targets.append(self.block_named(block))
        else:
            for token in [t.strip() for t in rest.split(",") if t.strip()]:
                if token.startswith("^"):
                    inst.targets.append(self.block_named(token[1:]))
                elif token.startswith("%"):
                    names.append(token)
                else:
                    raise ReadError(f"unexpected operand '{token}'")
        self.pending.append((inst, names, self.line_number))
        if result is not None:
            if result in self.values:
                raise ReadError(f"value {result} defined twice")
            self.values[result] = inst
        self.current.append(inst)

    def finish(self) -> Function:
        for inst, names, line in self.pending:
            for name in names:
                if name not in self.values:
                    raise ReadError(f"use of undefined value {name}", line)
                inst.operands.append(self.values[name])
        for block, (kind, names) in self.structure.items():
            block.kind = {"loop": "loop", "selection": "if", "switch_merge": "switch"}[kind]
            block.merge = self.block_named(names[0])
            if kind == "loop":
                block.cont = self.block_named(names[1])
        missing = [name for name, block in self.blocks.items() if block not in self.function.blocks]
        if missing:
            raise ReadError(f"branch to undefined block ^{missing[0]}")
        return self.function


def read_module(text: str) -> Module:
    bindings: list[Binding] = []
    groupshared: list[GroupsharedVar] = []
    scratch = 0
    structs: dict[str, T.StructType] = {}
    reader: _FunctionReader | None = None
    function: Function | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        try:
            if reader is not None:
                reader.line_number = number
                if line == "}":
                    function = reader.finish()
                    reader = None
                else:
                    reader.line(line)
            elif match := _FUNC.match(line):
                reader = _FunctionReader(match, structs)
            elif match := _STRUCT.match(line):
                name, body = match.groups()
                fields = []
                for part in body.split(", "):
                    field_name, _, field_type = part.partition(": ")
                    fields.append((field_name, parse_type(field_type, structs)))
                structs[name] = T.StructType(name, tuple(fields))
            elif match := _RESOURCE.match(line):
                name, count, kind, element, register, space, coherent = match.groups()
                count_value = 1 if count is None else (int(count[1:-1]) if count[1:-1] else None)
                element_type = parse_type(element[1:-1], structs) if element else None
                bindings.append(Binding(name, kind, element_type, register, int(space), count_value, bool(coherent)))
            elif match := _GROUPSHARED.match(line):
                name, type_text, offset, size = match.groups()
                groupshared.append(GroupsharedVar(name, parse_type(type_text, structs), int(offset), int(size)))
            elif line.startswith("scratch "):
                scratch = int(line.split()[1])
            else:
                raise ReadError(f"unexpected line: {line}")
        except ReadError as failure:
            raise ReadError(f"line {failure.line or number}: {failure}", failure.line or number) from None
    if function is None:
        raise ReadError("no function in the IR text")
    return Module(function, bindings, groupshared, scratch)
