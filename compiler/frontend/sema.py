"""Semantic analysis: scopes, types, overloads, and the rules a compute shader must follow.

``check(unit, diagnostics, entry)`` resolves every type, gives every expression
its type (see ``expressions.py``), links identifiers and calls to what they name,
and validates the entry point (``entry.py``). It returns a ``Program``: the
checked tree plus what later stages need (entry, ``[numthreads]``, resources,
groupshared memory). Typing is finished here; later stages only read it.

Declarations are checked in source order, as in C: a name is visible from its
declaration on, and a function called before its body needs a prototype.

Deliberately not checked here: anything that depends on uniformity (barriers or
wave operations in divergent control flow: the middle end's uniformity pass);
register bindings (overlapping ``register(u0)`` slots, ``packoffset``); dynamic
indexes out of range (constant ones are); recursion and undefined prototypes in
functions the entry cannot reach; 32-bit wrap-around in constant folding; narrowing
conversions other than vector truncation (silent, as in DXC by default); use of
uninitialized variables; the missing-return warning does not follow loops.
"""

from __future__ import annotations

from . import ast
from . import hlsl_types as T
from .conversions import ERROR
from .descriptor_heaps import DescriptorHeapRules
from .entry import MAX_STATEMENT_NESTING, EntryRules, Program, array_limit_error, too_deeply_nested
from .expressions import ExpressionChecker
from .methods import StructRules
from .resource_values import ResourceValueRules
from .facts import always_returns, innermost, scalar_count
from .language import Language, LanguageRules, without_16bit_types
from ..diagnostics import UNKNOWN, CompileError, Coord, Diagnostics

__all__ = ["Checker", "Program", "Scope", "check"]

STATEMENT_ATTRIBUTES = {"unroll", "loop", "fastopt", "allow_uav_condition", "branch", "flatten", "call", "forcecase"}


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


class Checker(EntryRules, LanguageRules, StructRules, ResourceValueRules, DescriptorHeapRules, ExpressionChecker):
    def __init__(self, diagnostics: Diagnostics, language: Language = Language()):
        self.diagnostics = diagnostics
        self.language = language
        builtin = T.BUILTIN_TYPES if language.has_16bit_types else without_16bit_types(T.BUILTIN_TYPES)
        self.types: dict[str, T.Type] = dict(builtin)
        self.functions: dict[str, list[ast.FuncDecl]] = {}
        self.methods: dict[str, dict[str, list[ast.FuncDecl]]] = {}  # struct -> name -> overloads
        self.globals = Scope()
        self.scope = self.globals
        self.function: ast.FuncDecl | None = None
        self.loop_depth = 0
        self.switch_depth = 0
        self.calls: dict[ast.FuncDecl, list[ast.Call]] = {}  # the user-function calls in each body
        self.global_vars: list[ast.VarDecl] = []
        self.cbuffers: list[ast.CBuffer] = []
        self.position: Coord = UNKNOWN  # the node being checked, for internal-error reports

    # ------------------------------------------------------------ diagnostics
    def error(self, message: str, coord: Coord) -> None:
        self.diagnostics.error(message, coord)

    def warning(self, message: str, coord: Coord, group: str) -> None:
        self.diagnostics.warning(message, coord, group)

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
            if not self.missing_type(name, spec.coord):
                self.error(f"unknown type name '{name}'", spec.coord)
            return ERROR
        if spec.args:
            self.error(f"type '{name}' does not take template arguments", spec.coord)
        return resolved

    def _template_int(self, arg, spec: ast.TypeSpec, low: int, high: int) -> int:
        if isinstance(arg, ast.TypeSpec) or self.visit(arg) is ERROR:
            value = None
        else:
            value = self.constant_int(arg)
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
            return ERROR
        element = self.resolve_type(args[0])
        if not isinstance(element, T.ScalarType):
            if element is not ERROR:
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
                if element is not ERROR:
                    self.error("ConstantBuffer<T> needs a struct type", spec.coord)
                return ERROR
            return element  # members are read through the struct value
        if name in ("ByteAddressBuffer", "RWByteAddressBuffer"):
            if element is not None:
                self.error(f"'{name}' takes no type argument", spec.coord)
            return T.ResourceType(name, None, coherent)
        if element is None:
            if "Structured" in name:
                self.error(f"'{name}' needs an element type: {name}<T>", spec.coord)
            element = T.VectorType(T.FLOAT, 4)
        if "Structured" not in name and not element.is_numeric and element is not ERROR:
            self.error(f"'{name}' element must be a scalar or vector type, not '{element}'", spec.coord)
        self.check_buffer_element(element, spec.coord)
        return T.ResourceType(name, element, coherent)

    def declared_type(self, spec: ast.TypeSpec, dims: list, modifiers: list[str]) -> T.Type:
        if "globallycoherent" in modifiers:
            spec.modifiers = spec.modifiers + ["globallycoherent"]
        base = self.resolve_type(spec)
        for dim in reversed(dims):
            if dim is None:
                base = T.ArrayType(base, None)
                continue
            size = self.constant_int(dim) if self.visit(dim) is not ERROR else 1
            if size is None or size <= 0:
                self.error("array size must be a positive integer constant", dim.coord)
                size = 1
            elif not self.array_fits(base, size, dim.coord):
                size = 1
            base = T.ArrayType(base, size)
        return base

    def array_fits(self, element: T.Type, size: int, coord) -> bool:
        """An array of ``size`` ``element``s is within the limits (``entry.array_limit_error``)."""
        problem = array_limit_error(element, size)
        if problem is not None:
            self.error(problem, coord)
        return problem is None

    # ---------------------------------------------------------- declarations
    def check_unit(self, unit: ast.TranslationUnit) -> None:
        for decl in unit.decls:
            self.position = decl.coord
            if isinstance(decl, ast.FuncDecl) and decl.qualifier is not None:
                self.define_method(decl)  # float S::f() { ... } (methods.py)
            elif isinstance(decl, ast.FuncDecl):
                self.declare_function(decl)
                if decl.body is not None:
                    self.check_function_body(decl)
            elif isinstance(decl, ast.StructDecl):
                self.check_struct(decl)
            elif isinstance(decl, ast.Typedef):
                self.check_typedef(decl)
            elif isinstance(decl, ast.CBuffer):
                self.check_cbuffer(decl)
            elif isinstance(decl, ast.DeclStmt):
                for var in decl.decls:
                    self.check_global_declaration(var)
        unit.decls.extend(self.heap_declarations())
        for calls in self.calls.values():  # calls made through a prototype reach the definition
            for call in calls:
                call.decl = self.definition_of(call.decl)

    def check_global_declaration(self, decl: ast.Node) -> None:
        if isinstance(decl, ast.StructDecl):
            self.check_struct(decl)
        elif isinstance(decl, ast.Typedef):
            self.check_typedef(decl)
        else:
            self.check_global(decl)

    def check_typedef(self, decl: ast.Typedef) -> None:
        decl.type = self.declared_type(decl.type_spec, decl.dims, decl.type_spec.modifiers)
        self.declare_type(decl)

    def declare_type(self, decl: ast.StructDecl | ast.Typedef) -> None:
        previous = self.types.get(decl.name)
        same_typedef = isinstance(decl, ast.Typedef) and previous == decl.type
        if previous is not None and not same_typedef:
            self.error(f"redefinition of type '{decl.name}'", decl.coord)
        self.types[decl.name] = decl.type

    def variable_type(self, var: ast.VarDecl) -> T.Type:
        declared = self.declared_type(var.type_spec, var.dims, var.modifiers)
        if innermost(declared) == T.VOID:
            self.error(f"variable '{var.name}' cannot have type 'void'", var.coord)
            return ERROR
        return declared

    def check_cbuffer(self, decl: ast.CBuffer) -> None:
        self.cbuffers.append(decl)
        for member in decl.members:
            member.type = self.variable_type(member)
            member.storage = "cbuffer"
            self.check_resource_storage(member)
            if isinstance(member.type, (T.ResourceType, T.SamplerType)):
                self.error("resources are not allowed in a cbuffer", member.coord)
            if member.init is not None:
                self.error("cbuffer members cannot have initializers", member.coord)
            self.declare(member)

    def check_global(self, var: ast.VarDecl) -> None:
        var.type = self.variable_type(var)
        self.type_attribute_arguments(var.attributes)
        base = innermost(var.type)
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
        self.check_resource_storage(var)
        if var.init is not None:
            self.check_initializer(var)
        self.check_sized(var)
        self.global_vars.append(var)
        self.declare(var)

    def declare(self, decl: ast.Node) -> None:
        name = decl.name
        previous = self.scope.names.get(name)
        if previous is not None:
            self.error(f"redefinition of '{name}'", decl.coord)
            self.diagnostics.note("previous definition is here", previous.coord)
        elif self.scope is self.globals and name in self.functions:
            self.error(f"redefinition of '{name}': it is a function", decl.coord)
        self.scope.names[name] = decl

    def declare_function(self, func: ast.FuncDecl) -> None:
        func.type = self.resolve_type(func.return_type)
        self.check_function_form(func)  # operators and const are for methods (methods.py)
        self.type_attribute_arguments(func.attributes)
        self.check_parameters(func)
        if self.globals.names.get(func.name) is not None:
            self.error(f"redefinition of '{func.name}' as a function", func.coord)
        overloads = self.functions.setdefault(func.name, [])
        for other in overloads:
            if [p.type for p in other.params] != [p.type for p in func.params]:
                continue
            if other.type != func.type and ERROR not in (other.type, func.type):
                self.error(f"functions that differ only in their return type cannot be overloaded "
                           f"('{func.name}')", func.coord)
            elif other.body is not None and func.body is not None:
                self.error(f"redefinition of '{func.name}'", func.coord)
                self.diagnostics.note("previous definition is here", other.coord)
            elif func.body is not None:
                for param, declared in zip(func.params, other.params):
                    if param.default is None:  # defaults given on the prototype still apply
                        param.default = declared.default
                overloads[overloads.index(other)] = func
            return
        overloads.append(func)

    def check_parameters(self, func: ast.FuncDecl) -> None:
        seen: set[str] = set()
        has_default = False
        for param in func.params:
            param.type = self.declared_type(param.type_spec, param.dims, param.modifiers)
            if param.type == T.VOID:
                self.error(f"parameter '{param.name}' cannot have type 'void'", param.coord)
                param.type = ERROR
            if param.name in seen:
                self.error(f"redefinition of parameter '{param.name}'", param.coord)
            seen.add(param.name)
            if param.default is not None:
                has_default = True
                if param.direction != "in":
                    self.error(f"out parameter '{param.name}' cannot have a default value", param.default.coord)
                self.convert(self.visit(param.default), param.type, param.default.coord)
            elif has_default:
                self.error(f"parameter '{param.name}' needs a default value: it follows one that has it",
                           param.coord)

    # ------------------------------------------------------------- functions
    def check_function_body(self, func: ast.FuncDecl) -> None:
        self.function = func
        outer = self.globals
        if func.owner is not None:  # a method: its object's members, then the globals
            outer = Scope(self.globals)
            outer.names.update(self.member_names(func))
        self.scope = Scope(outer)
        for param in ([func.this_param] if func.this_param is not None else []) + func.params:
            self.declare(param)
        self.check_compound(func.body, new_scope=False)
        if func.type != T.VOID and not always_returns(func.body):
            self.warning(f"not all control paths of '{func.name}' return a value", func.coord, "return-type")
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
        self.position = stmt.coord
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
        var.type = self.variable_type(var)
        if "groupshared" in var.modifiers:
            self.error("groupshared variables must be declared at global scope", var.coord)
        var.storage = "static" if "static" in var.modifiers else "local"
        self.check_resource_storage(var)
        if isinstance(innermost(var.type), (T.ResourceType, T.SamplerType)) and var.init is None:
            self.error("a local resource variable must be initialized", var.coord)
        if var.init is not None:
            self.check_initializer(var)
        elif "const" in var.modifiers:
            self.error(f"const variable '{var.name}' must be initialized", var.coord)
        self.check_sized(var)
        self.declare(var)

    def check_sized(self, var: ast.VarDecl) -> None:
        """Only resource arrays may stay unbounded (``Texture2D t[]``); others need a size."""
        outer = var.type
        if isinstance(outer, T.ArrayType) and outer.size is None and not isinstance(
            innermost(outer), (T.ResourceType, T.SamplerType)
        ):
            self.error(f"array '{var.name}' needs a size or an initializer", var.coord)

    def check_initializer(self, var: ast.VarDecl) -> None:
        if isinstance(var.init, ast.InitList) and isinstance(innermost(var.type), (T.ResourceType, T.SamplerType)):
            var.type = self.check_resource_init_list(var.init, var.type)
            return
        if isinstance(var.init, ast.InitList):
            var.type = self.check_init_list(var.init, var.type)
            return
        if self.heap_initializer(var):  # R v = ResourceDescriptorHeap[i] (descriptor_heaps.py)
            return
        source = self.visit(var.init)
        if isinstance(var.type, T.ArrayType) and var.type.size is None and isinstance(source, T.ArrayType):
            var.type = source
        self.convert(source, var.type, var.init.coord)

    def check_init_list(self, init: ast.InitList, target: T.Type) -> T.Type:
        """``{ ... }`` initializers: HLSL flattens both sides to scalars and matches counts.

        Returns the target type, with the size of an unsized array (``float a[] = {...}``) filled in.
        """
        provided = self._count_init(init)
        init.type = target
        needed = scalar_count(target)
        if provided is None or target is ERROR:
            return target
        if isinstance(target, T.ArrayType) and target.size is None:
            per_element = scalar_count(target.element)
            if per_element and provided % per_element == 0 and provided:
                target = T.ArrayType(target.element, provided // per_element)
                init.type = target
                return target
            needed = None
        if needed is None:
            self.error(f"'{target}' cannot be initialized with an initializer list", init.coord)
        elif provided != needed:
            self.error(f"initializer list has {provided} values but '{target}' needs {needed}", init.coord)
        return target

    def _count_init(self, init: ast.InitList) -> int | None:
        """The number of scalars in ``init`` flattened; None after an error."""
        total: int | None = 0
        for item in init.items:
            if isinstance(item, ast.InitList):
                count = self._count_init(item)
            else:
                item_type = self.visit(item)
                count = scalar_count(item_type)
                if count is None and item_type is not ERROR:
                    self.error(f"cannot use '{item_type}' in an initializer list", item.coord)
            total = None if total is None or count is None else total + count
        init.type = T.INIT_LIST
        return total

    def stmt_ExprStmt(self, stmt: ast.ExprStmt) -> None:
        self.visit(stmt.expr)

    def stmt_EmptyStmt(self, stmt: ast.EmptyStmt) -> None:
        pass

    def check_condition(self, expr) -> None:
        cond_type = self.visit(expr)
        if cond_type is not ERROR and not (isinstance(cond_type, T.ScalarType) or (
            isinstance(cond_type, T.VectorType) and cond_type.size == 1
        )):
            self.error(f"condition must be a scalar, not '{cond_type}'", expr.coord)

    def type_attribute_arguments(self, attributes: list[ast.Attribute]) -> None:
        """Give the expressions in ``[numthreads(N, 1, 1)]``, ``[unroll(4)]``... their types."""
        for attribute in attributes:
            for arg in attribute.args:
                if isinstance(arg, ast.EXPRESSIONS):
                    self.visit(arg)

    def check_statement_attributes(self, stmt) -> None:
        self.type_attribute_arguments(stmt.attributes)
        for attribute in stmt.attributes:
            if attribute.name.lower() not in STATEMENT_ATTRIBUTES:
                self.warning(f"unknown attribute '{attribute.name}' ignored", attribute.coord, "unknown-attributes")

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
        if selector is not ERROR and not (isinstance(selector, T.ScalarType) and selector.is_integer):
            self.error(f"switch selector must be an integer scalar, not '{selector}'", stmt.expr.coord)
        seen: set[int | str] = set()  # case values, and "default"
        self.switch_depth += 1
        self.scope = Scope(self.scope)
        for case in stmt.cases:
            label: int | str | None = "default"
            if case.value is not None:
                label = self.constant_int(case.value) if self.visit(case.value) is not ERROR else None
                if label is None and case.value.type is not ERROR:
                    self.error("case value must be an integer constant", case.value.coord)
            if label in seen:
                shown = "default" if label == "default" else f"case {label}"
                self.error(f"duplicate '{shown}' label", case.coord)
            if label is not None:
                seen.add(label)
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


def check(unit: ast.TranslationUnit, diagnostics: Diagnostics, entry: str = "main",
          filename: str | None = None, language: Language = Language()) -> Program | None:
    """Check ``unit`` and return its ``Program`` (None when the entry point is missing).

    An unexpected exception leaves with ``shc_coord`` set to the source position
    being checked, so an internal compiler error can say where it happened.
    """
    deep = too_deeply_nested(unit)
    if deep is not None:
        diagnostics.fatal(f"control flow nested too deeply (the limit is {MAX_STATEMENT_NESTING} "
                          f"statements inside one another)", deep.coord)
    checker = Checker(diagnostics, language)
    try:
        checker.check_unit(unit)
        program = checker.check_entry(unit, entry, filename or unit.coord.file)
        if program is not None:
            program.language = language
        return program
    except Exception as failure:
        if not isinstance(failure, CompileError):
            failure.shc_coord = checker.position
        raise
