"""Semantic analysis: scopes, types, overloads, and the rules a compute shader must follow.

``check(unit, diagnostics, entry)`` resolves every type, gives every expression
its type (see ``expressions.py``), links identifiers and calls to what they name,
and validates the entry point. It returns a ``Program``: the checked tree plus
what later stages need (entry, ``[numthreads]``, resources, groupshared memory).
Typing is finished here; later stages only read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import ast
from . import hlsl_types as T
from .conversions import conversion_cost
from .expressions import ExpressionChecker
from ..diagnostics import Coord, Diagnostics

COMPUTE_SEMANTICS = {
    "sv_groupid": T.VectorType(T.UINT, 3),
    "sv_groupthreadid": T.VectorType(T.UINT, 3),
    "sv_dispatchthreadid": T.VectorType(T.UINT, 3),
    "sv_groupindex": T.UINT,
}
MAX_GROUPSHARED_BYTES = 32 * 1024
STATEMENT_ATTRIBUTES = {"unroll", "loop", "fastopt", "allow_uav_condition", "branch", "flatten", "call", "forcecase"}
ENTRY_ATTRIBUTES = {"numthreads", "wavesize", "shader", "outputtopology", "rootsignature"}


@dataclass
class Program:
    """A checked translation unit and the facts about its entry point."""

    unit: ast.TranslationUnit
    entry: ast.FuncDecl
    numthreads: tuple[int, int, int]
    wave_size: int | None  # from [WaveSize(n)], else None (the compile option decides)
    globals: list[ast.VarDecl] = field(default_factory=list)
    cbuffers: list[ast.CBuffer] = field(default_factory=list)
    functions: list[ast.FuncDecl] = field(default_factory=list)

    @property
    def resources(self) -> list[ast.VarDecl]:
        return [decl for decl in self.globals if decl.storage == "resource"]

    @property
    def groupshared(self) -> list[ast.VarDecl]:
        return [decl for decl in self.globals if decl.storage == "groupshared"]

    @property
    def groupshared_bytes(self) -> int:
        return sum(T.size_in_bytes(decl.type) for decl in self.groupshared)


class Scope:
    def __init__(self, parent: Scope | None = None):
        self.parent = parent
        self.names: dict[str, ast.Node] = {}

    def lookup(self, name: str) -> ast.Node | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None


class Checker(ExpressionChecker):
    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self.types: dict[str, T.Type] = dict(T.BUILTIN_TYPES)
        self.functions: dict[str, list[ast.FuncDecl]] = {}
        self.globals = Scope()
        self.scope = self.globals
        self.function: ast.FuncDecl | None = None
        self.loop_depth = 0
        self.switch_depth = 0
        self.calls: dict[ast.FuncDecl, list[tuple[ast.FuncDecl, Coord]]] = {}
        self.global_vars: list[ast.VarDecl] = []
        self.cbuffers: list[ast.CBuffer] = []

    # ------------------------------------------------------------ diagnostics
    def error(self, message: str, coord: Coord) -> None:
        self.diagnostics.error(message, coord)

    def warning(self, message: str, coord: Coord) -> None:
        self.diagnostics.warning(message, coord)

    # ------------------------------------------------------------------ types
    def resolve_type(self, spec: ast.TypeSpec) -> T.Type:
        resolved = self._resolve_type(spec)
        spec.resolved = resolved
        return resolved

    def _resolve_type(self, spec: ast.TypeSpec) -> T.Type:
        name = spec.name
        if name == "void":
            return T.VOID
        if "unsigned" in spec.modifiers and name == "int":
            return T.UINT
        if name in ("vector", "matrix"):
            return self._resolve_vector_matrix(spec)
        if name in T.RESOURCE_KINDS or name in T.SAMPLER_KINDS or name == "ConstantBuffer":
            return self._resolve_resource(spec)
        resolved = self.types.get(name)
        if resolved is None:
            self.error(f"unknown type name '{name}'", spec.coord)
            return T.FLOAT
        if spec.args:
            self.error(f"type '{name}' does not take template arguments", spec.coord)
        return resolved

    def _template_int(self, arg, spec: ast.TypeSpec, low: int, high: int) -> int:
        value = self.constant_int(arg) if not isinstance(arg, ast.TypeSpec) else None
        if value is None or not low <= value <= high:
            self.error(f"'{spec.name}' size must be a constant from {low} to {high}", spec.coord)
            return low
        return value

    def _resolve_vector_matrix(self, spec: ast.TypeSpec) -> T.Type:
        defaults = [ast.TypeSpec("float"), ast.IntLiteral(4), ast.IntLiteral(4)]
        args = spec.args + defaults[len(spec.args):]
        expected = 2 if spec.name == "vector" else 3
        if len(spec.args) > expected or (spec.args and not isinstance(spec.args[0], ast.TypeSpec)):
            self.error(f"invalid template arguments for '{spec.name}'", spec.coord)
            return T.FLOAT
        element = self.resolve_type(args[0])
        if not isinstance(element, T.ScalarType):
            self.error(f"'{spec.name}' element must be a scalar type, not '{element}'", spec.coord)
            element = T.FLOAT
        if spec.name == "vector":
            return T.VectorType(element, self._template_int(args[1], spec, 1, 4))
        rows = self._template_int(args[1], spec, 1, 4)
        return T.MatrixType(element, rows, self._template_int(args[2], spec, 1, 4))

    def _resolve_resource(self, spec: ast.TypeSpec) -> T.Type:
        name = spec.name
        coherent = "globallycoherent" in spec.modifiers
        if name in T.SAMPLER_KINDS:
            return T.SamplerType(name)
        if len(spec.args) > 1 or (spec.args and not isinstance(spec.args[0], ast.TypeSpec)):
            self.error(f"'{name}' takes one type argument", spec.coord)
            return T.ResourceType(name if name != "ConstantBuffer" else "Buffer", T.FLOAT)
        element = self.resolve_type(spec.args[0]) if spec.args else None
        if name == "ConstantBuffer":
            if not isinstance(element, T.StructType):
                self.error("ConstantBuffer<T> needs a struct type", spec.coord)
            return element or T.FLOAT  # members are read through the struct value
        if name in ("ByteAddressBuffer", "RWByteAddressBuffer"):
            if element is not None:
                self.error(f"'{name}' takes no type argument", spec.coord)
            return T.ResourceType(name, None, coherent)
        if element is None:
            if name.startswith(("StructuredBuffer", "RWStructuredBuffer")):
                self.error(f"'{name}' needs an element type: {name}<T>", spec.coord)
            element = T.VectorType(T.FLOAT, 4)
        if "Structured" not in name and not element.is_numeric:
            self.error(f"'{name}' element must be a scalar or vector type, not '{element}'", spec.coord)
        return T.ResourceType(name, element, coherent)

    def declared_type(self, spec: ast.TypeSpec, dims: list, modifiers: list[str]) -> T.Type:
        if "globallycoherent" in modifiers:
            spec.modifiers = spec.modifiers + ["globallycoherent"]
        base = self.resolve_type(spec)
        for dim in reversed(dims):
            if dim is None:
                base = T.ArrayType(base, None)
                continue
            size = self.constant_int(dim)
            if size is None or size <= 0:
                self.error("array size must be a positive integer constant", dim.coord)
                size = 1
            base = T.ArrayType(base, size)
        return base

    # ---------------------------------------------------------- declarations
    def check_unit(self, unit: ast.TranslationUnit) -> None:
        for decl in unit.decls:
            if isinstance(decl, ast.FuncDecl):
                self.declare_function(decl)
            elif isinstance(decl, ast.StructDecl):
                self.check_struct(decl)
            elif isinstance(decl, ast.Typedef):
                self.check_typedef(decl)
            elif isinstance(decl, ast.CBuffer):
                self.check_cbuffer(decl)
            elif isinstance(decl, ast.DeclStmt):
                for var in decl.decls:
                    self.check_global(var)
        for decl in unit.decls:
            if isinstance(decl, ast.FuncDecl) and decl.body is not None:
                self.check_function_body(decl)

    def check_struct(self, decl: ast.StructDecl) -> None:
        members = []
        seen: set[str] = set()
        for member in decl.members:
            member.type = self.declared_type(member.type_spec, member.dims, member.modifiers)
            if member.name in seen:
                self.error(f"duplicate member '{member.name}'", member.coord)
            seen.add(member.name)
            if isinstance(member.type, (T.ResourceType, T.SamplerType)):
                self.error("resources are not allowed in structs", member.coord)
            members.append((member.name, member.type))
        decl.type = T.StructType(decl.name, tuple(members))
        self.types[decl.name] = decl.type

    def check_typedef(self, decl: ast.Typedef) -> None:
        decl.type = self.declared_type(decl.type_spec, decl.dims, decl.type_spec.modifiers)
        self.types[decl.name] = decl.type

    def check_cbuffer(self, decl: ast.CBuffer) -> None:
        self.cbuffers.append(decl)
        for member in decl.members:
            member.type = self.declared_type(member.type_spec, member.dims, member.modifiers)
            member.storage = "cbuffer"
            if isinstance(member.type, (T.ResourceType, T.SamplerType)):
                self.error("resources are not allowed in a cbuffer", member.coord)
            if member.init is not None:
                self.error("cbuffer members cannot have initializers", member.coord)
            self.declare(member)

    def check_global(self, var: ast.VarDecl) -> None:
        var.type = self.declared_type(var.type_spec, var.dims, var.modifiers)
        base = _innermost(var.type)
        if isinstance(base, (T.ResourceType, T.SamplerType)):
            var.storage = "resource"
        elif "groupshared" in var.modifiers:
            var.storage = "groupshared"
            if var.init is not None:
                self.error("groupshared variables cannot have initializers", var.coord)
        elif "static" in var.modifiers:
            var.storage = "static"
        else:
            var.storage = "uniform"  # a global without 'static' is a constant in $Globals
        if "globallycoherent" in var.modifiers and not (
            isinstance(base, T.ResourceType) and base.writable
        ):
            self.error("'globallycoherent' applies only to UAVs (RW resources)", var.coord)
        if var.init is not None:
            self.check_initializer(var)
        self.global_vars.append(var)
        self.declare(var)

    def declare(self, decl: ast.Node) -> None:
        name = decl.name
        previous = self.scope.names.get(name)
        if previous is not None:
            self.error(f"redefinition of '{name}'", decl.coord)
            self.diagnostics.note("previous definition is here", previous.coord)
        self.scope.names[name] = decl

    def declare_function(self, func: ast.FuncDecl) -> None:
        func.type = self.resolve_type(func.return_type)
        for param in func.params:
            param.type = self.declared_type(param.type_spec, param.dims, param.modifiers)
            if param.default is not None:
                self.visit(param.default)
        overloads = self.functions.setdefault(func.name, [])
        for other in overloads:
            if [p.type for p in other.params] == [p.type for p in func.params]:
                if other.body is not None and func.body is not None:
                    self.error(f"redefinition of '{func.name}'", func.coord)
                elif func.body is not None:
                    overloads[overloads.index(other)] = func
                return
        overloads.append(func)
        self.calls.setdefault(func, [])

    # ------------------------------------------------------------- functions
    def check_function_body(self, func: ast.FuncDecl) -> None:
        self.function = func
        self.scope = Scope(self.globals)
        for param in func.params:
            param_decl = param
            self.declare(param_decl)
        self.check_compound(func.body, new_scope=False)
        if func.type != T.VOID and not _always_returns(func.body):
            self.warning(f"not all control paths of '{func.name}' return a value", func.coord)
        self.scope = self.globals
        self.function = None

    def check_compound(self, block: ast.Compound, new_scope: bool = True) -> None:
        if new_scope:
            self.scope = Scope(self.scope)
        for item in block.items:
            self.check_statement(item)
        if new_scope:
            self.scope = self.scope.parent

    def check_statement(self, stmt: ast.Node) -> None:
        handler = getattr(self, "stmt_" + type(stmt).__name__, None)
        if handler is None:
            self.error("unsupported statement", stmt.coord)
            return
        handler(stmt)

    def stmt_Compound(self, stmt: ast.Compound) -> None:
        self.check_compound(stmt)

    def stmt_DeclStmt(self, stmt: ast.DeclStmt) -> None:
        for decl in stmt.decls:
            if isinstance(decl, ast.StructDecl):
                self.check_struct(decl)
            elif isinstance(decl, ast.Typedef):
                self.check_typedef(decl)
            else:
                self.check_local(decl)

    def check_local(self, var: ast.VarDecl) -> None:
        var.type = self.declared_type(var.type_spec, var.dims, var.modifiers)
        if "groupshared" in var.modifiers:
            self.error("groupshared variables must be declared at global scope", var.coord)
        var.storage = "static" if "static" in var.modifiers else "local"
        if isinstance(_innermost(var.type), (T.ResourceType, T.SamplerType)) and var.init is None:
            self.error("a local resource variable must be initialized", var.coord)
        if var.init is not None:
            self.check_initializer(var)
        elif "const" in var.modifiers:
            self.error(f"const variable '{var.name}' must be initialized", var.coord)
        self.declare(var)

    def check_initializer(self, var: ast.VarDecl) -> None:
        if isinstance(var.init, ast.InitList):
            self.check_init_list(var.init, var.type)
            return
        source = self.visit(var.init)
        if isinstance(var.type, T.ArrayType) and var.type.size is None and isinstance(source, T.ArrayType):
            var.type = source
        self.convert(source, var.type, var.init.coord)

    def check_init_list(self, init: ast.InitList, target: T.Type) -> None:
        """``{ ... }`` initializers: HLSL flattens both sides to scalars and matches counts."""
        init.type = target
        provided = 0
        for item in init.items:
            item_type = self.visit(item) if not isinstance(item, ast.InitList) else None
            if isinstance(item, ast.InitList):
                provided += self._count_init(item)
            else:
                provided += _scalar_count(item_type)
        needed = _scalar_count(target)
        if isinstance(target, T.ArrayType) and target.size is None:
            return
        if needed is not None and provided != needed:
            self.error(f"initializer list has {provided} values but '{target}' needs {needed}", init.coord)

    def _count_init(self, init: ast.InitList) -> int:
        total = 0
        for item in init.items:
            if isinstance(item, ast.InitList):
                total += self._count_init(item)
            else:
                total += _scalar_count(self.visit(item)) or 0
        init.type = T.INIT_LIST
        return total

    def stmt_ExprStmt(self, stmt: ast.ExprStmt) -> None:
        self.visit(stmt.expr)

    def stmt_EmptyStmt(self, stmt: ast.EmptyStmt) -> None:
        pass

    def check_condition(self, expr) -> None:
        cond_type = self.visit(expr)
        if not (isinstance(cond_type, T.ScalarType) or (
            isinstance(cond_type, T.VectorType) and cond_type.size == 1
        )):
            self.error(f"condition must be a scalar, not '{cond_type}'", expr.coord)

    def check_statement_attributes(self, stmt) -> None:
        for attribute in stmt.attributes:
            if attribute.name.lower() not in STATEMENT_ATTRIBUTES:
                self.warning(f"unknown attribute '{attribute.name}' ignored", attribute.coord)

    def stmt_If(self, stmt: ast.If) -> None:
        self.check_statement_attributes(stmt)
        self.check_condition(stmt.cond)
        self.check_scoped(stmt.then)
        if stmt.otherwise is not None:
            self.check_scoped(stmt.otherwise)

    def check_scoped(self, stmt: ast.Node) -> None:
        self.scope = Scope(self.scope)
        self.check_statement(stmt)
        self.scope = self.scope.parent

    def check_loop_body(self, body: ast.Node) -> None:
        self.loop_depth += 1
        self.check_scoped(body)
        self.loop_depth -= 1

    def stmt_For(self, stmt: ast.For) -> None:
        self.check_statement_attributes(stmt)
        self.scope = Scope(self.scope)
        if stmt.init is not None:
            self.check_statement(stmt.init)
        if stmt.cond is not None:
            self.check_condition(stmt.cond)
        if stmt.step is not None:
            self.visit(stmt.step)
        self.check_loop_body(stmt.body)
        self.scope = self.scope.parent

    def stmt_While(self, stmt: ast.While) -> None:
        self.check_statement_attributes(stmt)
        self.check_condition(stmt.cond)
        self.check_loop_body(stmt.body)

    def stmt_DoWhile(self, stmt: ast.DoWhile) -> None:
        self.check_statement_attributes(stmt)
        self.check_loop_body(stmt.body)
        self.check_condition(stmt.cond)

    def stmt_Switch(self, stmt: ast.Switch) -> None:
        self.check_statement_attributes(stmt)
        selector = self.visit(stmt.expr)
        if not (isinstance(selector, T.ScalarType) and selector.is_integer):
            self.error(f"switch selector must be an integer scalar, not '{selector}'", stmt.expr.coord)
        seen: dict[int | None, Coord] = {}
        self.switch_depth += 1
        self.scope = Scope(self.scope)
        for case in stmt.cases:
            value = None
            if case.value is not None:
                self.visit(case.value)
                value = self.constant_int(case.value)
                if value is None:
                    self.error("case value must be an integer constant", case.value.coord)
            if value in seen and (value is not None or case.value is None):
                label = "default" if case.value is None else f"case {value}"
                self.error(f"duplicate '{label}' label", case.coord)
            seen[value] = case.coord
            for item in case.body:
                self.check_statement(item)
        self.scope = self.scope.parent
        self.switch_depth -= 1

    def stmt_Break(self, stmt: ast.Break) -> None:
        if not self.loop_depth and not self.switch_depth:
            self.error("'break' statement not in loop or switch statement", stmt.coord)

    def stmt_Continue(self, stmt: ast.Continue) -> None:
        if not self.loop_depth:
            self.error("'continue' statement not in loop statement", stmt.coord)

    def stmt_Discard(self, stmt: ast.Discard) -> None:
        self.error("'discard' is only allowed in pixel shaders", stmt.coord)

    def stmt_Return(self, stmt: ast.Return) -> None:
        expected = self.function.type
        if stmt.value is None:
            if expected != T.VOID:
                self.error(f"non-void function '{self.function.name}' should return a value", stmt.coord)
            return
        value_type = self.visit(stmt.value)
        if expected == T.VOID:
            self.error(f"void function '{self.function.name}' should not return a value", stmt.coord)
            return
        self.convert(value_type, expected, stmt.value.coord)

    # ------------------------------------------------------------ the entry
    def check_entry(self, unit: ast.TranslationUnit, entry: str) -> Program | None:
        candidates = [f for f in self.functions.get(entry, []) if f.body is not None]
        if not candidates:
            self.error(f"entry point '{entry}' not found", unit.coord)
            return None
        func = candidates[0]
        numthreads = None
        wave_size = None
        for attribute in func.attributes:
            name = attribute.name.lower()
            if name == "numthreads":
                numthreads = self.check_numthreads(attribute)
            elif name == "wavesize":
                wave_size = self.check_wave_size(attribute)
            elif name not in ENTRY_ATTRIBUTES:
                self.warning(f"unknown attribute '{attribute.name}' ignored", attribute.coord)
        if numthreads is None:
            self.error(f"compute entry point '{entry}' needs a [numthreads(x, y, z)] attribute", func.coord)
            numthreads = (1, 1, 1)
        if func.type != T.VOID:
            self.error(f"compute entry point '{entry}' must return void", func.coord)
        for param in func.params:
            self.check_entry_param(param)
        program = Program(unit, func, numthreads, wave_size, self.global_vars, self.cbuffers,
                          [f for overloads in self.functions.values() for f in overloads])
        used = program.groupshared_bytes
        if used > MAX_GROUPSHARED_BYTES:
            coord = program.groupshared[-1].coord
            self.error(f"total groupshared memory is {used} bytes; the limit is {MAX_GROUPSHARED_BYTES}", coord)
        self.check_recursion(func)
        return program

    def check_numthreads(self, attribute: ast.Attribute) -> tuple[int, int, int] | None:
        values = [self.constant_int(arg) if not isinstance(arg, str) else None for arg in attribute.args]
        if len(values) != 3 or any(v is None for v in values):
            self.error("numthreads needs three integer constants", attribute.coord)
            return None
        x, y, z = values
        if min(values) < 1 or x > 1024 or y > 1024 or z > 64:
            self.error("numthreads must be within 1..1024 for x and y and 1..64 for z", attribute.coord)
        elif x * y * z > 1024:
            self.error(f"numthreads({x}, {y}, {z}) is {x * y * z} threads; a group has at most 1024",
                       attribute.coord)
        return (x, y, z)

    def check_wave_size(self, attribute: ast.Attribute) -> int | None:
        values = [self.constant_int(arg) if not isinstance(arg, str) else None for arg in attribute.args]
        if len(values) != 1 or values[0] not in (32, 64):
            self.error("RDNA2 runs waves of 32 or 64 lanes: WaveSize must be 32 or 64", attribute.coord)
            return None
        return values[0]

    def check_entry_param(self, param: ast.Param) -> None:
        if param.semantic is None:
            self.error(f"entry point parameter '{param.name}' needs a system-value semantic", param.coord)
            return
        expected = COMPUTE_SEMANTICS.get(param.semantic.lower())
        if expected is None:
            known = ", ".join(("SV_GroupID", "SV_GroupThreadID", "SV_DispatchThreadID", "SV_GroupIndex"))
            self.error(f"semantic '{param.semantic}' is not a compute shader input (use {known})", param.coord)
            return
        if param.direction != "in":
            self.error("compute shader inputs cannot be 'out' or 'inout'", param.coord)
        if conversion_cost(expected, param.type) is None:
            self.error(f"'{param.semantic}' is '{expected}'; it cannot bind to '{param.type}'", param.coord)

    def check_recursion(self, entry: ast.FuncDecl) -> None:
        state: dict[ast.FuncDecl, int] = {}

        def walk(func: ast.FuncDecl) -> None:
            state[func] = 1
            for callee, coord in self.calls.get(func, []):
                if state.get(callee) == 1:
                    self.error(f"recursive call to '{callee.name}': HLSL does not allow recursion", coord)
                elif callee not in state:
                    walk(callee)
            state[func] = 2

        walk(entry)


def _innermost(t: T.Type) -> T.Type:
    while isinstance(t, T.ArrayType):
        t = t.element
    return t


def _scalar_count(t: T.Type | None) -> int | None:
    if t is None:
        return None
    if isinstance(t, (T.ScalarType, T.VectorType, T.MatrixType)):
        return t.components
    if isinstance(t, T.ArrayType):
        inner = _scalar_count(t.element)
        return None if inner is None or t.size is None else inner * t.size
    if isinstance(t, T.StructType):
        counts = [_scalar_count(field_type) for _, field_type in t.fields]
        return None if None in counts else sum(counts)
    return None


def _always_returns(stmt: ast.Node | None) -> bool:
    if stmt is None:
        return False
    if isinstance(stmt, ast.Return):
        return True
    if isinstance(stmt, ast.Compound):
        return any(_always_returns(item) for item in stmt.items)
    if isinstance(stmt, ast.If):
        return _always_returns(stmt.then) and _always_returns(stmt.otherwise)
    if isinstance(stmt, ast.Switch):
        has_default = any(case.value is None for case in stmt.cases)
        return has_default and all(any(_always_returns(i) for i in case.body) or not case.body
                                   for case in stmt.cases) and bool(stmt.cases[-1].body)
    return False


def check(unit: ast.TranslationUnit, diagnostics: Diagnostics, entry: str = "main") -> Program | None:
    """Check ``unit`` and return its ``Program`` (None when the entry point is missing)."""
    checker = Checker(diagnostics)
    checker.check_unit(unit)
    return checker.check_entry(unit, entry)
