"""Structs as HLSL 2021 has them: single inheritance, methods, ``this`` (the struct half of sema).

- ``struct B : A { ... }``: ``B``'s fields are ``A``'s, in ``A``'s order, then its own
  (``hlsl_types.StructType``), so ``b.x`` finds an inherited member like any other, every
  layout puts the ``A`` part first, and a ``B`` converts implicitly to an ``A`` by keeping
  that part (``conversions.conversion_cost``). A member ``B`` declares again hides ``A``'s,
  which stays in the layout as ``A::name``. A base is a struct; there are no virtual
  functions. ``class`` is the same keyword (every member public).
- Methods are declared inside the struct; all of them are known before any body is checked,
  so bodies may call one another in any order. A non-static method gets an implicit ``inout``
  parameter ``this`` of its struct type (a reference, used with ``.``: ``this.x``); inside it
  a name that no local or parameter declares is looked up among the members before the
  globals, and resolves to a ``FieldRef`` (``x`` meaning ``this.x``).
- Calls: ``obj.f(args)`` looks ``f`` up in ``obj``'s struct, then in its bases (the nearest
  struct that declares the name hides the others' overloads); ``S::f(args)`` names a static
  method, or, inside a method of ``S`` or of a struct derived from it, a method called on
  ``this`` (``Base::f()``); ``f(args)`` inside a method finds the struct's methods before
  global functions. Lowering inlines them like functions, the object copied in and written
  back when the method writes it and the object can be written (lower/methods.py).
- ``float get() const``: ``this`` is a ``const`` parameter, members cannot be assigned, and
  only ``const`` methods may be called on a ``const`` object (a variable, a parameter, or the
  object of a ``const`` method). Values in constant buffers are not ``const`` objects here:
  DXC calls any method on them, and the method's writes are dropped.
- Operators: a struct may define ``operator+`` and the other overloadable operators as
  non-static methods (``OVERLOADABLE``); ``a + b``, ``-a`` and ``a[i]`` with a struct ``a`` call
  them (``Binary``/``Unary``/``Index.decl``). HLSL 2018 has no operator overloading.

What DXC rejects and shc reports at the name: a member or method that does not exist,
``this`` or a member in a static method or outside any method, a non-static method called
without an object, a base that is not a struct, a method that redeclares another, assignments
in a ``const`` method, operators that may not be overloaded (assignments, ``<<``, ``++``...)
or overloaded outside a struct.
"""

from __future__ import annotations

from . import ast
from . import hlsl_types as T
from .conversions import ERROR


# The operators a struct may overload in HLSL 2021 (as methods only); the others (assignments,
# compound assignments, shifts, ++ and --) DXC refuses to overload.
OVERLOADABLE = {"+", "-", "*", "/", "%", "^", "&", "|", "~", "!", "<", ">", "<=", ">=", "==", "!=",
                "&&", "||", "[]", "()"}
_OPERANDS = {"-": (0, 1), "+": (0, 1), "!": (0,), "~": (0,)}  # parameters besides 'this' (else 1)


class StructRules:
    """Mixed into the semantic checker (needs its types, scopes, function state and errors)."""

    # ------------------------------------------------------------- structs
    def check_struct(self, decl: ast.StructDecl) -> None:
        base = self.struct_base(decl)
        own = []
        seen: set[str] = set()
        for member in decl.members:
            member.type = self.declared_type(member.type_spec, member.dims, member.modifiers)
            if member.name in seen:
                self.error(f"duplicate member '{member.name}'", member.coord)
            seen.add(member.name)
            own.append((member.name, member.type))
        inherited = [] if base is None else [
            (f"{base.name}::{name}" if name in seen else name, field_type) for name, field_type in base.fields]
        decl.type = T.StructType(decl.name, tuple(inherited + own), base)
        self.declare_type(decl)
        self.check_methods(decl)

    def struct_base(self, decl: ast.StructDecl) -> T.StructType | None:
        if decl.base is None:
            return None
        base = self.resolve_type(decl.base)
        if base is ERROR:
            return None
        if not isinstance(base, T.StructType):
            self.error(f"base of '{decl.name}' must be a struct, not '{base}'", decl.base.coord)
            return None
        return base

    # ------------------------------------------------------------- methods
    def check_methods(self, decl: ast.StructDecl) -> None:
        table: dict[str, list[ast.FuncDecl]] = {}
        self.methods[decl.name] = table
        for method in decl.methods:
            self.declare_method(method, decl.type, table)
        outside = (self.function, self.scope, self.loop_depth, self.switch_depth)  # a struct in a function
        for method in decl.methods:
            if method.body is not None:
                self.loop_depth = self.switch_depth = 0
                self.check_function_body(method)
        self.function, self.scope, self.loop_depth, self.switch_depth = outside

    def declare_method(self, method: ast.FuncDecl, struct: T.StructType, table: dict) -> None:
        method.owner = struct
        method.type = self.resolve_type(method.return_type)
        self.check_parameters(method)
        self.check_function_form(method)
        if "static" not in method.modifiers:
            spec = ast.TypeSpec(struct.name, coord=method.coord, resolved=struct)
            modifiers = ["in", "const"] if method.const_method else ["inout"]
            method.this_param = ast.Param(spec, "this", modifiers=modifiers, coord=method.coord, type=struct)
        if struct.field(method.name) is not None:
            self.error(f"method '{method.name}' has the name of a member of '{struct}'", method.coord)
        overloads = table.setdefault(method.name, [])
        for other in overloads:
            if [p.type for p in other.params] == [p.type for p in method.params]:
                self.error(f"redefinition of '{struct}::{method.name}'", method.coord)
                self.diagnostics.note("previous definition is here", other.coord)
                return
        overloads.append(method)

    def define_method(self, func: ast.FuncDecl) -> None:
        """``float S::f(...) { ... }``: the body of a method ``S`` declared; it takes the prototype's place."""
        struct = self.types.get(func.qualifier)
        func.type = self.resolve_type(func.return_type)
        self.check_parameters(func)
        if not isinstance(struct, T.StructType):
            self.error(f"'{func.qualifier}' is not a struct; '::' names a struct's method", func.coord)
            return
        overloads = self.methods.get(struct.name, {}).get(func.name, [])
        types = [p.type for p in func.params]
        declared = next((m for m in overloads if [p.type for p in m.params] == types), None)
        if declared is None:
            self.error(f"'{struct}::{func.name}' defined here is not declared in '{struct}'", func.coord)
            return
        if declared.body is not None:
            self.error(f"redefinition of '{struct}::{func.name}'", func.coord)
            self.diagnostics.note("previous definition is here", declared.coord)
            return
        if func.const_method != declared.const_method:
            declared_as = "a const method" if declared.const_method else "a method that is not const"
            self.error(f"'{struct}::{func.name}' is declared as {declared_as}", func.coord)
        if func.type != declared.type and ERROR not in (func.type, declared.type):
            self.error(f"'{struct}::{func.name}' returns '{declared.type}' where it is declared, not "
                       f"'{func.type}'", func.coord)
        func.owner, func.this_param = struct, declared.this_param
        func.modifiers = list(declared.modifiers)
        for param, earlier in zip(func.params, declared.params):
            if param.default is None:  # defaults given on the declaration still apply
                param.default = earlier.default
        overloads[overloads.index(declared)] = func
        self.check_function_body(func)

    def method_definition(self, method: ast.FuncDecl) -> ast.FuncDecl:
        """The method with a body a call of ``method``'s declaration ends up calling."""
        types = [p.type for p in method.params]
        for other in self.methods.get(method.owner.name, {}).get(method.name, []):
            if other.body is not None and [p.type for p in other.params] == types:
                return other
        return method

    def check_function_form(self, func: ast.FuncDecl) -> None:
        """What only a method may be: ``const`` after its parameters (not a static one), an operator."""
        if func.const_method and (func.owner is None or "static" in func.modifiers):
            what = "a static method" if func.owner is not None else "a function that is not a method"
            self.error(f"'{func.name}' is {what}: it cannot be 'const'", func.coord)
        self.check_operator(func)

    def check_operator(self, func: ast.FuncDecl) -> None:
        """``operator+`` and friends: only the overloadable ones, only as non-static methods,
        with one operand for a binary operator (``this`` is the other) and none for a unary one."""
        if not func.name.startswith("operator"):
            return
        symbol = func.name[len("operator"):]
        if symbol not in OVERLOADABLE:
            self.error(f"overloading '{func.name}' is not allowed", func.coord)
        elif func.owner is None:
            self.error(f"overloading non-member '{func.name}' is not allowed", func.coord)
        elif self.language.hlsl_version < 2021:
            self.error(f"overloading '{func.name}' needs HLSL 2021 (-HV 2021)", func.coord)
        elif "static" in func.modifiers:
            self.error(f"'{func.name}' cannot be a static method", func.coord)
        elif symbol != "()" and len(func.params) not in _OPERANDS.get(symbol, (1,)):
            self.error(f"'{func.name}' has the wrong number of parameters ({len(func.params)})", func.coord)

    def operator_call(self, node, symbol: str, obj: T.StructType, operands: list,
                      operand_types: list) -> T.Type | None:
        """``a + b``, ``-a``, ``a[i]`` with a struct ``a``: a call of its operator method; None when
        the struct has no such operator (the caller reports the operands)."""
        name = "operator" + symbol
        overloads = [m for m in self.methods_named(obj, name) if len(m.params) == len(operands)]
        if not overloads:
            return None
        return self.call_user_function(node, overloads, operand_types, name=name, args=operands)

    def member_names(self, method: ast.FuncDecl) -> dict[str, ast.FieldRef]:
        """What the members of a method's object are called inside its body (a static method has
        no object: its ``FieldRef``s have no ``this_param``, and naming one is an error)."""
        return {name: ast.FieldRef(name, method.this_param, index, coord=method.coord, type=field_type)
                for index, (name, field_type) in enumerate(method.owner.fields)}

    def methods_named(self, struct: T.StructType, name: str) -> list[ast.FuncDecl]:
        """The overloads of ``name`` in ``struct`` or, if it declares none, its nearest base that does."""
        current: T.StructType | None = struct
        while current is not None:
            overloads = self.methods.get(current.name, {}).get(name)
            if overloads:
                return overloads
            current = current.base
        return []

    # --------------------------------------------------------------- calls
    def method_call(self, node: ast.MethodCall, obj: T.StructType, arg_types: list[T.Type]) -> T.Type:
        """``obj.f(args)`` on a struct value."""
        overloads = self.methods_named(obj, node.name)
        if not overloads:
            if obj.field(node.name) is not None:
                self.error(f"'{node.name}' is a member of '{obj}', not a method", node.coord)
            else:
                self.error(f"no method named '{node.name}' in '{obj}'", node.coord)
            return ERROR
        result = self.call_user_function(node, overloads, arg_types)
        self.check_const_object(node, _is_const(node.obj))
        return result

    def check_const_object(self, node, const: bool) -> None:
        """A method that is not ``const`` cannot run on a ``const`` object (a ``const`` variable or
        parameter, or the object of a ``const`` method), as in DXC."""
        method = node.decl
        if const and isinstance(method, ast.FuncDecl) and method.this_param is not None \
                and not method.const_method:
            self.error(f"'{method.owner}::{method.name}' is not a const method; it cannot be called on a "
                       f"const object", node.coord)

    def member_call(self, node: ast.Call, arg_types: list[T.Type]) -> T.Type | None:
        """``S::f(args)``, or ``f(args)`` naming a method inside a method: the call's type; None
        when ``node`` is neither (a call of a global function or an intrinsic)."""
        owner = self.function.owner if self.function is not None else None
        if node.qualifier is not None:
            struct = self.types.get(node.qualifier)
            if not isinstance(struct, T.StructType):
                self.error(f"'{node.qualifier}' is not a struct; '::' names a struct's method", node.coord)
                return ERROR
            overloads = self.methods_named(struct, node.name)
            if not overloads:
                self.error(f"no method named '{node.name}' in '{struct}'", node.coord)
                return ERROR
        elif owner is not None and self.methods_named(owner, node.name):
            overloads = self.methods_named(owner, node.name)
        else:
            return None
        result = self.call_user_function(node, overloads, arg_types)
        method = node.decl
        if isinstance(method, ast.FuncDecl) and method.this_param is not None:
            this = self.function.this_param if self.function is not None else None
            if this is None or not (this.type == method.owner or this.type.derives_from(method.owner)):
                self.error(f"call to non-static method '{method.owner}::{method.name}' without an object",
                           node.coord)
                return ERROR
            self.check_const_object(node, self.function.const_method)
        return result

    def undeclared_name(self, node: ast.Identifier) -> bool:
        """Report a name no scope declares when a method explains why; False if it does not."""
        if node.name == "this":
            self.error("'this' is only available in non-static methods", node.coord)
            return True
        return False

    def member_without_object(self, node: ast.Identifier) -> None:
        self.error(f"member '{node.name}' used in static method '{self.function.owner}::{self.function.name}'",
                   node.coord)


def _is_const(expr) -> bool:
    """``expr`` is (part of) a ``const`` variable or parameter, or a ``const`` method's object."""
    while isinstance(expr, (ast.Index, ast.Member)):
        expr = expr.obj
    decl = expr.decl if isinstance(expr, ast.Identifier) else None
    if isinstance(decl, ast.FieldRef):
        decl = decl.this_param
    return isinstance(decl, (ast.Param, ast.VarDecl)) and "const" in decl.modifiers
