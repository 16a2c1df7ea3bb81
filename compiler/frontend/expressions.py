"""Typing of HLSL expressions (the expression half of semantic analysis).

``ExpressionChecker.visit(expr)`` returns the expression's type and stores it on
the node. Untyped literals adapt to the other operand as in DXC (``h * 2.0`` stays
``half``); vector operands of different sizes truncate with a warning; calls
resolve against user overloads first and then the intrinsic table.
"""

from __future__ import annotations

from . import ast
from . import hlsl_types as T
from .conversions import (
    TRUNCATION, binary_shape, conversion_cost, parse_matrix_swizzle, parse_swizzle, shape_of, with_shape,
)
from .intrinsics import IntrinsicError, is_intrinsic, lookup_function, lookup_method

ARITHMETIC = {"+", "-", "*", "/", "%"}
BITWISE = {"&", "|", "^", "<<", ">>"}
COMPARISON = {"<", ">", "<=", ">=", "==", "!="}
LOGICAL = {"&&", "||"}


class ExpressionChecker(ast.NodeVisitor):
    """Mixed into the semantic checker; relies on its scope, error and function state."""

    def visit(self, node):
        node.type = super().visit(node)
        return node.type

    def generic_visit(self, node):
        self.error("unsupported expression", node.coord)
        return T.FLOAT

    # ------------------------------------------------------------ conversions
    def convert(self, source: T.Type, target: T.Type, coord) -> None:
        """Check an implicit conversion; warn on truncation, error when impossible."""
        cost = conversion_cost(source, target)
        if cost is None:
            self.error(f"cannot convert from '{source}' to '{target}'", coord)
        elif cost >= TRUNCATION:
            self.warning(f"implicit truncation of vector type ('{source}' to '{target}')", coord)

    # ---------------------------------------------------------------- leaves
    def visit_IntLiteral(self, node: ast.IntLiteral) -> T.Type:
        if "u" in node.suffix:
            return T.UINT64 if node.suffix.count("l") == 2 else T.UINT
        if "l" in node.suffix:
            return T.INT64
        return T.INT

    def visit_FloatLiteral(self, node: ast.FloatLiteral) -> T.Type:
        return {"h": T.HALF, "l": T.DOUBLE}.get(node.suffix, T.FLOAT)

    def visit_BoolLiteral(self, node: ast.BoolLiteral) -> T.Type:
        return T.BOOL

    def visit_Identifier(self, node: ast.Identifier) -> T.Type:
        decl = self.scope.lookup(node.name)
        if decl is None:
            if node.name in self.functions or is_intrinsic(node.name):
                self.error(f"'{node.name}' is a function; call it with ( )", node.coord)
            else:
                self.error(f"use of undeclared identifier '{node.name}'", node.coord)
            return T.FLOAT
        node.decl = decl
        return decl.type

    # ------------------------------------------------------------- operators
    def visit_Binary(self, node: ast.Binary) -> T.Type:
        left, right = self.visit(node.left), self.visit(node.right)
        if not (left.is_numeric and right.is_numeric):
            self.error(f"invalid operands to binary '{node.op}' ('{left}' and '{right}')", node.coord)
            return T.FLOAT
        shape = binary_shape(left, right)
        if shape is None:
            self.error(f"operand shapes do not match for '{node.op}' ('{left}' and '{right}')", node.coord)
            return left
        dims, is_matrix, truncated = shape
        if truncated:
            self.warning(f"implicit truncation of vector type in '{node.op}' ('{left}' and '{right}')", node.coord)
        element = self.operand_element(node.left, left, node.right, right)
        if node.op in COMPARISON or node.op in LOGICAL:
            return with_shape(T.BOOL, dims, is_matrix)
        if node.op in BITWISE or node.op == "%":
            if element.is_float and node.op != "%":
                self.error(f"'{node.op}' needs integer operands, not '{left}' and '{right}'", node.coord)
                return with_shape(T.INT, dims, is_matrix)
        if element == T.BOOL:
            element = T.INT
        return with_shape(element, dims, is_matrix)

    def operand_element(self, left_expr, left: T.Type, right_expr, right: T.Type) -> T.ScalarType:
        """The element type of a binary operation: untyped literals adapt to the other side."""
        left_element, right_element = left.element, right.element
        left_literal, right_literal = _is_untyped_literal(left_expr), _is_untyped_literal(right_expr)
        if left_literal and not right_literal and _literal_adapts(left_element, right_element):
            return right_element
        if right_literal and not left_literal and _literal_adapts(right_element, left_element):
            return left_element
        return T.common_scalar(left_element, right_element)

    def visit_Unary(self, node: ast.Unary) -> T.Type:
        operand = self.visit(node.operand)
        if not operand.is_numeric:
            self.error(f"invalid operand to unary '{node.op}' ('{operand}')", node.coord)
            return T.FLOAT
        if node.op in ("++", "--"):
            self.check_lvalue(node.operand)
            return operand
        if node.op == "!":
            return T.with_element(operand, T.BOOL)
        if node.op == "~":
            if operand.element.is_float:
                self.error(f"'~' needs an integer operand, not '{operand}'", node.coord)
            return operand if operand.element != T.BOOL else T.with_element(operand, T.INT)
        if operand.element == T.BOOL:
            return T.with_element(operand, T.INT)
        return operand

    def visit_Assign(self, node: ast.Assign) -> T.Type:
        target = self.visit(node.target)
        value = self.visit(node.value)
        self.check_lvalue(node.target)
        if node.op != "=":
            operator = node.op[:-1]
            if operator in BITWISE and (target.is_numeric and target.element.is_float):
                self.error(f"'{node.op}' needs an integer target, not '{target}'", node.coord)
        if not (isinstance(node.value, ast.InitList)):
            self.convert(value, target, node.value.coord)
        return target

    def visit_Conditional(self, node: ast.Conditional) -> T.Type:
        cond = self.visit(node.cond)
        then, otherwise = self.visit(node.then), self.visit(node.otherwise)
        if not cond.is_numeric:
            self.error(f"condition must be numeric, not '{cond}'", node.cond.coord)
        if then == otherwise:
            return then
        if not (then.is_numeric and otherwise.is_numeric):
            self.error(f"incompatible operand types ('{then}' and '{otherwise}')", node.coord)
            return then
        shape = binary_shape(then, otherwise)
        if shape is None:
            self.error(f"incompatible operand types ('{then}' and '{otherwise}')", node.coord)
            return then
        element = self.operand_element(node.then, then, node.otherwise, otherwise)
        return with_shape(element, shape[0], shape[1])

    def visit_Comma(self, node: ast.Comma) -> T.Type:
        result = T.VOID
        for expr in node.exprs:
            result = self.visit(expr)
        return result

    def visit_InitList(self, node: ast.InitList) -> T.Type:
        self.error("initializer lists are only allowed in declarations", node.coord)
        return T.INIT_LIST

    # ---------------------------------------------------- casts, constructors
    def visit_Cast(self, node: ast.Cast) -> T.Type:
        target = self.resolve_type(node.type_spec)
        source = self.visit(node.expr)
        if target == source:
            return target
        if isinstance(target, T.StructType) or isinstance(source, T.StructType):
            if not (isinstance(source, T.ScalarType) and isinstance(target, T.StructType)):
                self.error(f"cannot cast from '{source}' to '{target}'", node.coord)
            return target
        if not (source.is_numeric and target.is_numeric):
            self.error(f"cannot cast from '{source}' to '{target}'", node.coord)
            return target
        source_shape, target_shape = shape_of(source), shape_of(target)
        fits = source_shape == (1, 1) or (
            target_shape[0] <= source_shape[0] and target_shape[1] <= source_shape[1]
        ) or source.components == target.components
        if not fits:
            self.error(f"cannot cast from '{source}' to '{target}'", node.coord)
        return target

    def visit_Construct(self, node: ast.Construct) -> T.Type:
        target = self.resolve_type(node.type_spec)
        arg_types = [self.visit(arg) for arg in node.args]
        if not target.is_numeric:
            self.error(f"'{target}' cannot be constructed with ( ); use an initializer list", node.coord)
            return target
        total = 0
        for arg, arg_type in zip(node.args, arg_types):
            if not arg_type.is_numeric:
                self.error(f"cannot use '{arg_type}' in a '{target}' constructor", arg.coord)
                return target
            total += arg_type.components
        if total == 1 and target.components > 1 and isinstance(target, T.VectorType):
            return target  # float4(x) splats
        if total != target.components:
            self.error(f"'{target}' constructor needs {target.components} components; {total} given", node.coord)
        return target

    # --------------------------------------------------------------- calls
    def visit_Call(self, node: ast.Call) -> T.Type:
        arg_types = [self.visit(arg) for arg in node.args]
        overloads = self.functions.get(node.name)
        if overloads:
            return self.call_user_function(node, overloads, arg_types)
        if self.scope.lookup(node.name) is not None:
            self.error(f"'{node.name}' is not a function", node.coord)
            return T.FLOAT
        if not is_intrinsic(node.name):
            self.error(f"use of undeclared identifier '{node.name}'", node.coord)
            return T.FLOAT
        try:
            resolution = lookup_function(node.name, arg_types)
        except IntrinsicError as failure:
            self.error(str(failure), node.coord)
            return T.FLOAT
        node.decl = resolution
        self.check_call_arguments(node.args, arg_types, resolution.param_types, resolution.out_params)
        return resolution.return_type

    def call_user_function(self, node: ast.Call, overloads, arg_types) -> T.Type:
        best, best_cost, ambiguous = None, None, False
        for func in overloads:
            cost = _call_cost(func, arg_types)
            if cost is None:
                continue
            if best_cost is None or cost < best_cost:
                best, best_cost, ambiguous = func, cost, False
            elif cost == best_cost:
                ambiguous = True
        if best is None:
            shown = ", ".join(str(t) for t in arg_types)
            self.error(f"no matching function for call to '{node.name}({shown})'", node.coord)
            return overloads[0].type
        if ambiguous:
            self.error(f"call to '{node.name}' is ambiguous", node.coord)
        node.decl = best
        params = [p.type for p in best.params[: len(arg_types)]]
        outs = tuple(i for i, p in enumerate(best.params[: len(arg_types)]) if p.direction != "in")
        self.check_call_arguments(node.args, arg_types, params, outs)
        if self.function is not None:
            self.calls.setdefault(self.function, []).append((best, node.coord))
        return best.type

    def check_call_arguments(self, args, arg_types, param_types, out_params) -> None:
        for index, (arg, arg_type, param_type) in enumerate(zip(args, arg_types, param_types)):
            if index in out_params:
                self.check_lvalue(arg, what="an out argument")
                if conversion_cost(param_type, arg_type) is None:
                    self.error(f"cannot convert out argument from '{param_type}' to '{arg_type}'", arg.coord)
            else:
                self.convert(arg_type, param_type, arg.coord)

    def visit_MethodCall(self, node: ast.MethodCall) -> T.Type:
        obj = self.visit(node.obj)
        arg_types = [self.visit(arg) for arg in node.args]
        try:
            resolution = lookup_method(obj, node.name, arg_types)
        except IntrinsicError as failure:
            self.error(str(failure), node.coord)
            return T.FLOAT
        node.decl = resolution
        self.check_call_arguments(node.args, arg_types, resolution.param_types, resolution.out_params)
        return resolution.return_type

    # ------------------------------------------------------- member, index
    def visit_Member(self, node: ast.Member) -> T.Type:
        obj = self.visit(node.obj)
        if isinstance(obj, T.StructType):
            field_type = obj.field(node.name)
            if field_type is None:
                self.error(f"no member named '{node.name}' in '{obj}'", node.coord)
                return T.FLOAT
            return field_type
        if isinstance(obj, (T.ScalarType, T.VectorType)):
            size = obj.components
            indexes = parse_swizzle(node.name, size)
            if indexes is None:
                self.error(f"invalid swizzle '{node.name}' on '{obj}'", node.coord)
                return obj
            node.swizzle = indexes
            return T.vector(obj.element, len(indexes))
        if isinstance(obj, T.MatrixType):
            indexes = parse_matrix_swizzle(node.name, obj.rows, obj.cols)
            if indexes is None:
                self.error(f"invalid matrix member '{node.name}' on '{obj}'", node.coord)
                return obj
            node.swizzle = indexes
            return T.vector(obj.element, len(indexes))
        self.error(f"member reference base type '{obj}' is not a structure or vector", node.coord)
        return T.FLOAT

    def visit_Index(self, node: ast.Index) -> T.Type:
        obj = self.visit(node.obj)
        index = self.visit(node.index)
        if isinstance(obj, T.ResourceType):
            return self.index_resource(node, obj, index)
        if not (isinstance(index, T.ScalarType) and (index.is_integer or index == T.BOOL)):
            if not (isinstance(index, T.ScalarType) and index.is_float):
                self.error(f"array subscript must be an integer, not '{index}'", node.index.coord)
        if isinstance(obj, T.ArrayType):
            constant = self.constant_int(node.index)
            if constant is not None and obj.size is not None and not 0 <= constant < obj.size:
                self.error(f"index {constant} is past the end of the array ({obj.size} elements)", node.index.coord)
            return obj.element
        if isinstance(obj, T.VectorType):
            return obj.element
        if isinstance(obj, T.MatrixType):
            return obj.row_type
        self.error(f"subscripted value of type '{obj}' is not an array, vector or matrix", node.coord)
        return T.FLOAT

    def index_resource(self, node: ast.Index, obj: T.ResourceType, index: T.Type) -> T.Type:
        if obj.element is None:
            self.error(f"'{obj}' has no [] operator; use Load/Store", node.coord)
            return T.UINT
        dims = obj.coord_dims
        expected = T.vector(T.UINT, dims)
        cost = conversion_cost(index, expected) if index.is_numeric else None
        if cost is None or shape_of(index) != shape_of(expected):
            self.error(f"'{obj}' is indexed with a {expected}, not '{index}'", node.index.coord)
        return obj.element

    # ------------------------------------------------------------ l-values
    def check_lvalue(self, expr, what: str = "the left side of an assignment") -> None:
        problem = self._lvalue_problem(expr)
        if problem:
            self.error(f"{problem} cannot be {what}" if "cannot" not in problem else problem, expr.coord)

    def _lvalue_problem(self, expr) -> str | None:
        if isinstance(expr, ast.Identifier):
            decl = expr.decl
            if decl is None:
                return None  # already reported
            if isinstance(decl, ast.Param):
                return None
            if decl.storage == "cbuffer" or decl.storage == "uniform":
                return f"cannot assign to '{decl.name}': constant buffer values are read-only"
            if "const" in decl.modifiers:
                return f"cannot assign to const variable '{decl.name}'"
            if decl.storage == "resource":
                return f"cannot assign to resource '{decl.name}'"
            return None
        if isinstance(expr, ast.Member):
            if expr.swizzle is not None and len(set(expr.swizzle)) != len(expr.swizzle):
                return f"swizzle '{expr.name}' repeats a component and cannot be assigned"
            return self._lvalue_problem(expr.obj)
        if isinstance(expr, ast.Index):
            obj_type = expr.obj.type
            if isinstance(obj_type, T.ResourceType):
                if not obj_type.writable:
                    return f"cannot write to read-only resource '{_name_of(expr.obj)}' ({obj_type})"
                return None
            return self._lvalue_problem(expr.obj)
        return "expression is not assignable; it"

    # ------------------------------------------------------------ constants
    def constant_int(self, expr) -> int | None:
        """The value of an integer constant expression, or None."""
        if isinstance(expr, ast.IntLiteral):
            return expr.value
        if isinstance(expr, ast.BoolLiteral):
            return int(expr.value)
        if isinstance(expr, ast.Unary) and not expr.postfix:
            value = self.constant_int(expr.operand)
            if value is None:
                return None
            return {"-": -value, "+": value, "~": ~value, "!": int(not value)}.get(expr.op)
        if isinstance(expr, ast.Binary):
            left, right = self.constant_int(expr.left), self.constant_int(expr.right)
            if left is None or right is None:
                return None
            return _fold(expr.op, left, right)
        if isinstance(expr, ast.Cast):
            return self.constant_int(expr.expr)
        if isinstance(expr, ast.Identifier):
            decl = self.scope.lookup(expr.name)
            if isinstance(decl, ast.VarDecl) and "const" in decl.modifiers and decl.init is not None:
                if decl.storage in ("static", "local") and not isinstance(decl.init, ast.InitList):
                    return self.constant_int(decl.init)
        return None


def _fold(op: str, left: int, right: int) -> int | None:
    if op in ("/", "%") and right == 0:
        return None
    operations = {
        "+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
        "/": lambda: int(left / right), "%": lambda: left - int(left / right) * right,
        "<<": lambda: left << (right & 63), ">>": lambda: left >> (right & 63),
        "&": lambda: left & right, "|": lambda: left | right, "^": lambda: left ^ right,
        "<": lambda: int(left < right), ">": lambda: int(left > right), "<=": lambda: int(left <= right),
        ">=": lambda: int(left >= right), "==": lambda: int(left == right), "!=": lambda: int(left != right),
        "&&": lambda: int(bool(left and right)), "||": lambda: int(bool(left or right)),
    }
    operation = operations.get(op)
    return operation() if operation else None


def _is_untyped_literal(expr) -> bool:
    if isinstance(expr, ast.Unary) and expr.op in ("-", "+") and not expr.postfix:
        expr = expr.operand
    return isinstance(expr, (ast.IntLiteral, ast.FloatLiteral)) and expr.suffix == ""


def _literal_adapts(literal: T.ScalarType, other: T.ScalarType) -> bool:
    """An unsuffixed literal takes the other operand's type unless that would lose its kind."""
    if literal.is_float:
        return other.is_float
    return other.kind != "bool"


def _call_cost(func: ast.FuncDecl, arg_types: list[T.Type]) -> tuple | None:
    params = func.params
    required = sum(1 for p in params if p.default is None)
    if not required <= len(arg_types) <= len(params):
        return None
    costs = []
    for param, arg_type in zip(params, arg_types):
        cost = conversion_cost(arg_type, param.type)
        if cost is None:
            return None
        costs.append(cost)
    return (max(costs, default=0), sum(costs))


def _name_of(expr) -> str:
    while isinstance(expr, (ast.Index, ast.Member)):
        expr = expr.obj
    return getattr(expr, "name", "?")
