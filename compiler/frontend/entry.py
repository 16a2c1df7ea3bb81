"""The rules a compute entry point and its program must follow.

After the whole unit is checked, ``EntryRules.check_entry`` validates the entry
point and returns the ``Program`` later stages start from:

- the entry function exists (exactly one definition) and returns ``void``;
- ``[numthreads(x, y, z)]`` with constant x, y <= 1024, z <= 64 and x*y*z <= 1024;
- ``[WaveSize(n)]``, if present, is a wave size RDNA2 runs: 32 or 64;
- ``[RootSignature("...")]``, if present, parses (root_signature.py); lowering checks
  that it covers every register the kernel binds;
- every parameter is one of the four compute inputs, with a type it can bind to;
- groupshared memory totals at most 32 KiB;
- no function reachable from the entry is recursive, directly or through others,
  and every function it calls has a body.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ast
from . import hlsl_types as T
from .root_signature import RootSignature, RootSignatureError, parse as parse_root_signature
from .conversions import ERROR
from .language import Language
from ..diagnostics import Coord

# Each compute input: its type, and the number of components a parameter may take from it.
COMPUTE_SEMANTICS = {
    "sv_groupid": T.VectorType(T.UINT, 3),
    "sv_groupthreadid": T.VectorType(T.UINT, 3),
    "sv_dispatchthreadid": T.VectorType(T.UINT, 3),
    "sv_groupindex": T.UINT,
}
SEMANTIC_NAMES = "SV_GroupID, SV_GroupThreadID, SV_DispatchThreadID or SV_GroupIndex"
MAX_GROUPSHARED_BYTES = 32 * 1024
# Every call is inlined: calls that call others twice, level after level, multiply (README,
# "Limits"); SPD inlines a few hundred.
MAX_INLINED_CALLS = 65_536
MAX_THREADS = (1024, 1024, 64)
MAX_GROUP_SIZE = 1024
WAVE_SIZES = (32, 64)
ENTRY_ATTRIBUTES = {"numthreads", "wavesize", "shader", "outputtopology", "rootsignature"}


@dataclass(eq=False)  # one of a kind: compared by identity
class Program:
    """A checked translation unit and the facts about its entry point."""

    unit: ast.TranslationUnit
    entry: ast.FuncDecl
    numthreads: tuple[int, int, int]
    wave_size: int | None  # from [WaveSize(n)], else None (the compile option decides)
    globals: list[ast.VarDecl] = field(default_factory=list)
    cbuffers: list[ast.CBuffer] = field(default_factory=list)
    functions: list[ast.FuncDecl] = field(default_factory=list)
    root_signature: RootSignature | None = None  # from [RootSignature("...")]
    language: Language = field(default_factory=Language)  # the shader model and HLSL version checked against

    @property
    def resources(self) -> list[ast.VarDecl]:
        return [decl for decl in self.globals if decl.storage == "resource"]

    @property
    def groupshared(self) -> list[ast.VarDecl]:
        return [decl for decl in self.globals if decl.storage == "groupshared"]

    @property
    def groupshared_bytes(self) -> int:
        return sum(T.size_in_bytes(decl.type) for decl in self.groupshared)


class EntryRules:
    """Mixed into the semantic checker (needs its functions, calls, globals and diagnostics)."""

    def check_entry(self, unit: ast.TranslationUnit, entry: str, filename: str) -> Program | None:
        candidates = [f for f in self.functions.get(entry, []) if f.body is not None]
        if not candidates:
            self.error(f"entry point '{entry}' not found", Coord(filename, 0, 0))
            return None
        func = candidates[0]
        if len(candidates) > 1:
            self.error(f"entry point '{entry}' is overloaded; it must be defined once", candidates[1].coord)
        numthreads, wave_size, signature = None, None, None
        for attribute in func.attributes:
            name = attribute.name.lower()
            if name == "numthreads":
                numthreads = self.check_numthreads(attribute)
            elif name == "wavesize":
                self.check_wave_size_model(attribute.coord)
                wave_size = self.check_wave_size(attribute)
            elif name == "rootsignature":
                signature = self.check_root_signature(attribute)
            elif name not in ENTRY_ATTRIBUTES:
                self.warning(f"unknown attribute '{attribute.name}' ignored", attribute.coord, "unknown-attributes")
        if numthreads is None:
            if not any(a.name.lower() == "numthreads" for a in func.attributes):
                self.error(f"compute entry point '{entry}' needs a [numthreads(x, y, z)] attribute", func.coord)
            numthreads = (1, 1, 1)
        if func.type != T.VOID:
            self.error(f"compute entry point '{entry}' must return void, not '{func.type}'", func.coord)
        for param in func.params:
            self.check_entry_param(param)
        functions = [f for overloads in self.functions.values() for f in overloads]
        program = Program(unit, func, numthreads, wave_size, self.global_vars, self.cbuffers, functions,
                          signature)
        self.check_groupshared(program)
        self.check_call_graph(func)
        return program

    def attribute_ints(self, attribute: ast.Attribute) -> list[int | None]:
        return [None if isinstance(arg, str) else self.constant_int(arg) for arg in attribute.args]

    def check_numthreads(self, attribute: ast.Attribute) -> tuple[int, int, int] | None:
        values = self.attribute_ints(attribute)
        if any(getattr(arg, "type", None) is ERROR for arg in attribute.args):
            return None  # an undeclared name in the arguments: already reported
        if len(values) != 3 or None in values:
            self.error("numthreads needs three integer constants: [numthreads(x, y, z)]", attribute.coord)
            return None
        x, y, z = values
        for axis, value, limit in zip("xyz", values, MAX_THREADS):
            if not 1 <= value <= limit:
                self.error(f"numthreads {axis} is {value}; it must be from 1 to {limit}", attribute.coord)
                return None
        if x * y * z > MAX_GROUP_SIZE:
            self.error(f"numthreads({x}, {y}, {z}) is {x * y * z} threads; a group has at most "
                       f"{MAX_GROUP_SIZE}", attribute.coord)
            return None
        return (x, y, z)

    def check_wave_size(self, attribute: ast.Attribute) -> int | None:
        values = self.attribute_ints(attribute)
        if len(values) != 1 or values[0] not in WAVE_SIZES:
            shown = ", ".join("?" if v is None else str(v) for v in values)
            self.error(f"WaveSize({shown}) is not supported: RDNA2 runs waves of 32 or 64 lanes",
                       attribute.coord)
            return None
        return values[0]

    def check_root_signature(self, attribute: ast.Attribute) -> RootSignature | None:
        if len(attribute.args) != 1 or not isinstance(attribute.args[0], str):
            self.error('RootSignature needs one string: [RootSignature("...")]', attribute.coord)
            return None
        try:
            return parse_root_signature(attribute.args[0])
        except RootSignatureError as failure:
            self.error(f"invalid root signature: {failure.message}", attribute.coord)
            return None

    def check_entry_param(self, param: ast.Param) -> None:
        if param.semantic is None:
            self.error(f"entry point parameter '{param.name}' needs a semantic ({SEMANTIC_NAMES})", param.coord)
            return
        expected = COMPUTE_SEMANTICS.get(param.semantic.lower())
        if expected is None:
            self.error(f"'{param.semantic}' is not a compute shader input; use {SEMANTIC_NAMES}", param.coord)
            return
        if param.direction != "in":
            self.error(f"compute shader input '{param.name}' cannot be 'out' or 'inout'", param.coord)
        element = T.element_of(param.type)
        fits = (
            isinstance(param.type, (T.ScalarType, T.VectorType))
            and element is not None and element.is_integer and element.bits == 32
            and param.type.components <= expected.components
        )
        if not fits and param.type is not ERROR:
            self.error(f"'{param.semantic}' is '{expected}'; it cannot bind to '{param.type}'", param.coord)

    def check_groupshared(self, program: Program) -> None:
        used = 0
        for decl in program.groupshared:
            used += T.size_in_bytes(decl.type)
            if used > MAX_GROUPSHARED_BYTES:
                self.error(f"groupshared memory is {program.groupshared_bytes} bytes in total; the limit is "
                           f"{MAX_GROUPSHARED_BYTES} (32 KiB)", decl.coord)
                return

    def check_call_graph(self, entry: ast.FuncDecl) -> None:
        """Recursion anywhere in the call graph of ``entry``; calls of functions without a body."""
        state: dict[ast.FuncDecl, int] = {}  # 1 while on the walk's path, 2 when done
        inlined: dict[ast.FuncDecl, int] = {}  # calls inlined into a function, transitively
        stack: list[tuple[ast.FuncDecl, int]] = [(entry, 0)]
        state[entry] = 1
        while stack:  # an explicit stack: a long call chain must not exhaust Python's
            func, position = stack.pop()
            calls = self.calls.get(func, [])
            if position == len(calls):
                state[func] = 2
                inlined[func] = sum(1 + inlined.get(call.decl, 0) for call in calls)
                if inlined[func] > MAX_INLINED_CALLS and all(inlined.get(c.decl, 0) <= MAX_INLINED_CALLS
                                                            for c in calls):  # once, where it crosses
                    self.error(f"inlining '{func.name}' takes {inlined[func]:,} calls; the limit is "
                               f"{MAX_INLINED_CALLS:,}", func.coord)
                continue
            stack.append((func, position + 1))
            call = calls[position]
            callee = self.definition_of(call.decl)
            call.decl, coord = callee, call.coord
            if callee.body is None:
                if state.get(callee) is None:
                    state[callee] = 2
                    self.error(f"function '{callee.name}' is called but never defined", coord)
            elif state.get(callee) == 1:
                path = [f.name for f, _ in stack if state.get(f) == 1]
                cycle = path[path.index(callee.name):] + [callee.name] if callee.name in path else []
                shown = " -> ".join(cycle) if len(cycle) > 2 else f"'{callee.name}' calls itself"
                self.error(f"recursive call to '{callee.name}' ({shown}): HLSL does not allow recursion",
                           coord)
            elif callee not in state:
                state[callee] = 1
                stack.append((callee, 0))

    def definition_of(self, func: ast.FuncDecl) -> ast.FuncDecl:
        """The defined overload a call of a prototype ends up calling."""
        if func.body is not None:
            return func
        if func.owner is not None:
            return self.method_definition(func)  # methods.py
        for other in self.functions.get(func.name, []):
            if other.body is not None and [p.type for p in other.params] == [p.type for p in func.params]:
                return other
        return func


MAX_ARRAY_BYTES = 2**31 - 1  # an array's data: what a 32-bit byte offset addresses
MAX_RESOURCE_ARRAY = 1_000_000  # D3D12's shader-visible descriptor heap (resource binding tiers 1 and 2)


def array_limit_error(element: T.Type, size: int) -> str | None:
    """Why an array of ``size`` ``element``s is past the limits (README, "Limits"), or None:
    at most 2 GiB of data, or 1,000,000 resources."""
    count, leaf = size, element
    while isinstance(leaf, T.ArrayType) and leaf.size is not None:
        count, leaf = count * leaf.size, leaf.element
    if isinstance(leaf, (T.ResourceType, T.SamplerType)):
        if count > MAX_RESOURCE_ARRAY:
            return f"resource array is too large ({count} elements; the limit is {MAX_RESOURCE_ARRAY:,})"
        return None
    leaf_bytes = T.size_in_bytes(leaf) if leaf is not ERROR else 4
    if count * max(leaf_bytes, 1) > MAX_ARRAY_BYTES:
        return f"array is too large ({count} elements of {leaf_bytes} bytes; the limit is 2 GiB)"
    return None


MAX_STATEMENT_NESTING = 128  # control-flow statements inside one another (README, "Limits")
_CONTROL = (ast.If, ast.For, ast.While, ast.DoWhile, ast.Switch)


def too_deeply_nested(unit: ast.TranslationUnit) -> ast.Node | None:
    """The first control-flow statement with ``MAX_STATEMENT_NESTING`` others around it, or
    None. An ``else if`` continues its chain instead of nesting, so long chains are fine.
    One walk with its own stack, before any stage recurses into the statements."""
    work: list[tuple[ast.Node, int]] = [(unit, 0)]
    while work:
        node, depth = work.pop()
        if isinstance(node, _CONTROL):
            if depth >= MAX_STATEMENT_NESTING:
                return node
            inner = depth + 1
        else:
            inner = depth
        for child in node.children():
            chained = isinstance(node, ast.If) and child is node.otherwise and isinstance(child, ast.If)
            work.append((child, depth if chained else inner))
    return None

