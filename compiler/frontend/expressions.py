"""Typing of HLSL expressions (the expression half of semantic analysis).

``ExpressionChecker.visit(expr)`` returns the expression's type and stores it on
the node. Untyped literals adapt to the other operand as in DXC (``h * 2.0`` stays
``half``); vector operands of different sizes truncate with a warning; calls
resolve against user overloads first and then the intrinsic table.

After an error an expression has the type ``ERROR``, which every check accepts
silently: one mistake gives one diagnostic, not a cascade.
"""

from __future__ import annotations

from . import ast
from . import hlsl_types as T
from .conversions import (
    ERROR, TRUNCATION, binary_shape, conversion_cost, flat_count, parse_matrix_swizzle, parse_swizzle,
    shape_of, with_shape,
)
from .intrinsics import IntrinsicError, is_intrinsic, lookup_function, lookup_method
from .lvalues import LValueRules
from .resource_access import ResourceAccessRules, is_mips_access

ARITHMETIC = {"+", "-", "*", "/", "%"}
BITWISE = {"&", "|", "^", "<<", ">>"}
COMPARISON = {"<", ">", "<=", ">=", "==", "!="}
LOGICAL = {"&&", "||"}


class ExpressionChecker(ResourceAccessRules, LValueRules, ast.NodeVisitor):
    """Mixed into the semantic checker; relies on its scope, error and function state."""

    def visit(self, node):
        self.position = node.coord  # where an internal compiler error is reported
        node.type = super().visit(node)
        return node.type

    def generic_visit(self, node):
        self.error("unsupported expression", node.coord)
        return ERROR

    # ------------------------------------------------------------ conversions
    def convert(self, source: T.Type, target: T.Type, coord) -> None:
        """Check an implicit conversion; warn on truncation, error when impossible."""
        cost = conversion_cost(source, target)
        if cost is None:
            self.error(f"cannot convert from '{source}' to '{target}'", coord)
        elif cost >= TRUNCATION:
            self.warning(f"implicit truncation of vector type ('{source}' to '{target}')", coord, "conversion")

    # ---------------------------------------------------------------- leaves
    def visit_IntLiteral(self, node: ast.IntLiteral) -> T.Type:
        if "u" in node.suffix:
            return T.UINT64 if node.suffix.count("l") == 2 else T.UINT
        if "l" in node.suffix or node.value > 0xFFFFFFFF:  # DXC's literal int is 64 bits wide
            return T.INT64 if node.value < 2**63 else T.UINT64
        return T.INT

    def visit_FloatLiteral(self, node: ast.FloatLiteral) -> T.Type:
        return {"h": self.types["half"], "l": T.DOUBLE}.get(node.suffix, T.FLOAT)  # half: 32 bits below SM 6.2

    def visit_BoolLiteral(self, node: ast.BoolLiteral) -> T.Type:
        return T.BOOL

    def visit_Identifier(self, node: ast.Identifier) -> T.Type:
        decl = self.scope.lookup(node.name)
        if decl is None:
            if node.name in self.functions or (is_intrinsic(node.name) and self.intrinsic_declared(node.name)):
                self.error(f"'{node.name}' is a function; call it with ( )", node.coord)
            elif not self.missing_name_gated(node.name, node.coord) and not self.undeclared_name(node):
                self.error(f"use of undeclared identifier '{node.name}'", node.coord)
            return ERROR
        if isinstance(decl, ast.FieldRef) and decl.this_param is None:
            self.member_without_object(node)  # a member named in a static method (methods.py)
            return ERROR
        node.decl = decl
        return decl.type

    # ------------------------------------------------------------- operators
    def visit_Binary(self, node: ast.Binary) -> T.Type:
        left, right = self.visit(node.left), self.visit(node.right)
        if left is ERROR or right is ERROR:
            return ERROR
        overloaded = self.operator_call(node, node.op, left, [node.right], [right]) \
            if isinstance(left, T.StructType) else None  # a struct's operator method (methods.py)
        if overloaded is not None:
            return overloaded
        if not (left.is_numeric and right.is_numeric):
            self.error(f"invalid operands to binary '{node.op}' ('{left}' and '{right}')", node.coord)
            return ERROR
        if node.op in LOGICAL and not (isinstance(left, T.ScalarType) and isinstance(right, T.ScalarType)) \
                and not self.vector_logical_allowed():
            # HLSL 2021 (DXC): && and || short-circuit, so they take scalars only (2018: element-wise)
            name = "and" if node.op == "&&" else "or"
            self.error("operands for short-circuiting logical binary operator must be scalar; "
                       f"for vectors use '{name}'", node.coord)
            return ERROR
        shape = binary_shape(left, right)
        if shape is None:
            self.error(f"operand shapes do not match for '{node.op}' ('{left}' and '{right}')", node.coord)
            return ERROR
        dims, is_matrix, truncated = shape
        if truncated:
            self.warning(f"implicit truncation of vector type in '{node.op}' ('{left}' and '{right}')", node.coord,
                         "conversion")
        element = self.operand_element(node.left, left, node.right, right)
        if node.op in COMPARISON or node.op in LOGICAL:
            return with_shape(T.BOOL, dims, is_matrix)
        if node.op in BITWISE and element.is_float:
            self.error(f"'{node.op}' needs integer operands, not '{left}' and '{right}'", node.coord)
            return ERROR
        if element == T.BOOL:
            element = T.INT
        if node.op in ("/", "%") and element.is_integer and self.constant_int(node.right) == 0:
            self.error(f"integer {'division' if node.op == '/' else 'remainder'} by zero", node.coord)
        return with_shape(element, dims, is_matrix)

    def operand_element(self, left_expr, left: T.Type, right_expr, right: T.Type) -> T.ScalarType:
        """The element type of a binary operation: untyped literals adapt to the other side."""
        left_element, right_element = left.element, right.element
        left_literal, right_literal = is_untyped_literal(left_expr), is_untyped_literal(right_expr)
        if left_literal and not right_literal and _literal_adapts(left_element, right_element):
            return right_element
        if right_literal and not left_literal and _literal_adapts(right_element, left_element):
            return left_element
        return T.common_scalar(left_element, right_element)

    def visit_Unary(self, node: ast.Unary) -> T.Type:
        operand = self.visit(node.operand)
        if operand is ERROR:
            return ERROR
        overloaded = self.operator_call(node, node.op, operand, [], []) \
            if isinstance(operand, T.StructType) and node.op in ("-", "+", "!", "~") else None
        if overloaded is not None:
            return overloaded
        if not operand.is_numeric:
            self.error(f"invalid operand to unary '{node.op}' ('{operand}')", node.coord)
            return ERROR
        if node.op in ("++", "--"):
            if operand.element == T.BOOL:
                self.error(f"'{node.op}' needs a numeric operand, not '{operand}'", node.coord)
                return ERROR
            self.check_lvalue(node.operand)
            return operand
        if node.op == "!":
            return T.with_element(operand, T.BOOL)
        if node.op == "~":
            if operand.element.is_float:
                self.error(f"'~' needs an integer operand, not '{operand}'", node.coord)
                return ERROR
            return operand if operand.element != T.BOOL else T.with_element(operand, T.INT)
        if operand.element == T.BOOL:
            return T.with_element(operand, T.INT)
        return operand

    def visit_Assign(self, node: ast.Assign) -> T.Type:
        target = self.visit(node.target)
        value = self.visit(node.value)
        self.check_lvalue(node.target)
        if node.op != "=" and target is not ERROR:
            operator = node.op[:-1]
            if not target.is_numeric:
                self.error(f"invalid operands to '{node.op}' ('{target}' and '{value}')", node.coord)
                return target
            if operator in BITWISE and target.element.is_float:
                self.error(f"'{node.op}' needs an integer target, not '{target}'", node.coord)
                return target
        if not isinstance(node.value, ast.InitList):
            self.convert(value, target, node.value.coord)
        return target

    def visit_Conditional(self, node: ast.Conditional) -> T.Type:
        """``c ? a : b``; in HLSL 2018 a vector condition selects per component (``v > 0 ? v : 0``),
        in HLSL 2021 the condition is a scalar and ``select`` is the per-component form."""
        cond = self.visit(node.cond)
        then, otherwise = self.visit(node.then), self.visit(node.otherwise)
        if cond is not ERROR and not isinstance(cond, (T.ScalarType, T.VectorType)):
            self.error(f"condition must be a scalar or a vector, not '{cond}'", node.cond.coord)
            cond = ERROR
        if isinstance(cond, T.VectorType) and not self.vector_logical_allowed():
            self.error("condition for short-circuiting ternary operator must be scalar; "
                       "for vectors use 'select'", node.cond.coord)
            cond = ERROR
        if then is ERROR or otherwise is ERROR:
            return ERROR
        if then == otherwise:
            result = then
        else:
            shape = binary_shape(then, otherwise) if then.is_numeric and otherwise.is_numeric else None
            if shape is None:
                self.error(f"incompatible operand types ('{then}' and '{otherwise}')", node.coord)
                return ERROR
            element = self.operand_element(node.then, then, node.otherwise, otherwise)
            result = with_shape(element, shape[0], shape[1])
        if not isinstance(cond, T.VectorType) or cond.size == 1:
            return result
        if not isinstance(result, (T.ScalarType, T.VectorType)):
            self.error(f"a vector condition selects components; '{result}' has none", node.coord)
            return ERROR
        if isinstance(result, T.VectorType) and result.size != cond.size:
            self.warning(f"implicit truncation of vector type in '?:' ('{cond}' condition and '{result}')",
                         node.coord, "conversion")
        size = cond.size if isinstance(result, T.ScalarType) else min(cond.size, result.size)
        return T.vector(result.element, size)

    def visit_Comma(self, node: ast.Comma) -> T.Type:
        result = T.VOID
        for expr in node.exprs:
            result = self.visit(expr)
        return result

    def visit_InitList(self, node: ast.InitList) -> T.Type:
        for item in node.items:
            self.visit(item)
        self.error("initializer lists are only allowed in declarations", node.coord)
        return ERROR

    # ---------------------------------------------------- casts, constructors
    def visit_Cast(self, node: ast.Cast) -> T.Type:
        target = self.resolve_type(node.type_spec)
        source = self.visit(node.expr)
        if target == source or source is ERROR or target is ERROR:
            return target
        if isinstance(target, T.StructType) or isinstance(source, T.StructType):
            to_base = isinstance(source, T.StructType) and source.derives_from(target)
            if not (isinstance(source, T.ScalarType) and isinstance(target, T.StructType)) and not to_base:
                self.error(f"cannot cast from '{source}' to '{target}'", node.coord)
            return target
        if isinstance(target, T.ArrayType) or isinstance(source, T.ArrayType):
            # an element-wise (flat) cast: the first scalars of the source, in order
            source_count, target_count = flat_count(source), flat_count(target)
            if source_count is None or target_count is None or not (source_count == 1 or source_count >= target_count):
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
        if target is ERROR:
            return ERROR
        if not target.is_numeric:
            self.error(f"'{target}' cannot be constructed with ( ); use an initializer list", node.coord)
            return target
        if ERROR in arg_types:
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
        method = self.member_call(node, arg_types)  # S::f(x), or a method called inside another
        if method is not None:
            return method
        overloads = self.functions.get(node.name)
        intrinsic = is_intrinsic(node.name) and self.intrinsic_declared(node.name)
        if overloads and not (intrinsic and _no_viable(overloads, arg_types)):
            return self.call_user_function(node, overloads, arg_types)
        variable = self.scope.lookup(node.name)
        if variable is not None:
            if isinstance(variable.type, T.StructType) and self.methods_named(variable.type, "operator()"):
                # declared as DXC allows; calling it is not lowered yet
                self.error(f"calling '{node.name}' through its struct's 'operator()' is not supported by shc",
                           node.coord)
            else:
                self.error(f"'{node.name}' is not a function", node.coord)
            return ERROR
        if not intrinsic:
            if not self.missing_name_gated(node.name, node.coord):
                self.error(f"use of undeclared identifier '{node.name}'", node.coord)
            return ERROR
        if ERROR in arg_types:
            return ERROR
        literals = [i for i, arg in enumerate(node.args) if is_untyped_literal(arg)]
        try:
            resolution = lookup_function(node.name, arg_types, literals)
        except IntrinsicError as failure:
            self.error(str(failure), node.coord)
            return ERROR
        node.decl = resolution
        self.check_call_model(node.name, resolution, node.coord)
        self.check_intrinsic_arguments(node.args, arg_types, resolution)
        if resolution.group == "atomic":
            self.check_atomic_destination(node.args[0])
        return resolution.return_type

    def call_user_function(self, node: ast.Call, overloads, arg_types, name: str | None = None,
                           args: list | None = None) -> T.Type:
        """Resolve ``node`` against ``overloads``; an operator (methods.py) passes its name and operands."""
        name = node.name if name is None else name
        args = node.args if args is None else args
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
            if ERROR not in arg_types:
                shown = ", ".join(str(t) for t in arg_types)
                self.error(f"no matching function for call to '{name}({shown})'", node.coord)
            return overloads[0].type if len(overloads) == 1 else ERROR
        if ambiguous:
            if ERROR not in arg_types:
                self.error(f"call to '{name}' is ambiguous", node.coord)
            return ERROR
        node.decl = best
        params = [p.type for p in best.params[: len(arg_types)]]
        outs = tuple(i for i, p in enumerate(best.params[: len(arg_types)]) if p.direction != "in")
        self.check_call_arguments(args, arg_types, params, outs)
        if self.function is not None:
            self.calls.setdefault(self.function, []).append(node)
        return best.type

    def check_call_arguments(self, args, arg_types, param_types, out_params) -> None:
        for index, (arg, arg_type, param_type) in enumerate(zip(args, arg_types, param_types)):
            if index in out_params:
                self.check_lvalue(arg, out_argument=True)
                if conversion_cost(param_type, arg_type) is None:
                    self.error(f"cannot convert out argument from '{param_type}' to '{arg_type}'", arg.coord)
            else:
                self.convert(arg_type, param_type, arg.coord)

    def check_intrinsic_arguments(self, args, arg_types, resolution) -> None:
        """The intrinsic table already matched the types; check l-values and warn on truncation."""
        for index in resolution.out_params:
            if index < len(args):
                self.check_lvalue(args[index], out_argument=True)
        for index in resolution.truncated_args:
            if index < len(args):
                self.warning(f"implicit truncation of vector type ('{arg_types[index]}' to "
                             f"'{resolution.param_types[index]}')", args[index].coord, "conversion")
        for index, (arg, param) in enumerate(zip(args, resolution.param_types)):
            # DXC's float_like functions (sqrt, floor, pow ...) compute a double in float
            if (index not in resolution.out_params and not is_untyped_literal(arg)
                    and _element_bits(arg_types[index], "float") == 64 and _element_bits(param, "float") == 32):
                self.warning(f"conversion from larger type '{arg_types[index]}' to smaller type '{param}', "
                             f"possible loss of data", arg.coord, "conversion")

    def visit_MethodCall(self, node: ast.MethodCall) -> T.Type:
        obj = self.visit(node.obj)
        arg_types = [self.visit(arg) for arg in node.args]
        template = self.template_argument(node)
        if obj is ERROR or ERROR in arg_types or template is ERROR:
            return ERROR
        if isinstance(obj, T.StructType) and template is None:
            return self.method_call(node, obj, arg_types)  # a user-defined method (methods.py)
        try:
            resolution = lookup_method(obj, node.name, arg_types, template)
        except IntrinsicError as failure:
            self.error(str(failure), node.coord)
            return ERROR
        node.decl = resolution
        self.check_call_model(node.name, resolution, node.coord)
        self.check_intrinsic_arguments(node.args, arg_types, resolution)
        return resolution.return_type

    # ------------------------------------------------------- member, index
    def visit_Member(self, node: ast.Member) -> T.Type:
        return self.member_of(node, self.visit(node.obj))

    def member_of(self, node: ast.Member, obj: T.Type) -> T.Type:
        if obj is ERROR:
            return ERROR
        if isinstance(obj, T.StructType):
            field_type = obj.field(node.name)
            if field_type is None:
                self.error(f"no member named '{node.name}' in '{obj}'", node.coord)
                return ERROR
            return field_type
        if isinstance(obj, (T.ScalarType, T.VectorType)):
            indexes = parse_swizzle(node.name, obj.components)
            if indexes is None:
                self.error(f"invalid swizzle '{node.name}' on '{obj}'", node.coord)
                return ERROR
            node.swizzle = indexes
            return T.vector(obj.element, len(indexes))
        if isinstance(obj, T.MatrixType):
            indexes = parse_matrix_swizzle(node.name, obj.rows, obj.cols)
            if indexes is None:
                self.error(f"invalid matrix member '{node.name}' on '{obj}'", node.coord)
                return ERROR
            node.swizzle = indexes
            return T.vector(obj.element, len(indexes))
        if isinstance(obj, T.ResourceType) and node.name == "mips":
            self.error(f"'.mips' of '{obj}' is used as tex.mips[level][pos], indexed twice", node.coord)
            return ERROR
        self.error(f"member reference base type '{obj}' is not a structure or vector", node.coord)
        return ERROR

    def visit_Index(self, node: ast.Index) -> T.Type:
        if is_mips_access(node):
            return self.mips_or_index(node)
        obj = self.visit(node.obj)
        return self.index_of(node, obj, self.visit(node.index))

    def index_of(self, node: ast.Index, obj: T.Type, index: T.Type) -> T.Type:
        if obj is ERROR:
            return ERROR
        if isinstance(obj, T.ResourceType):
            return self.index_resource(node, obj, index)
        overloaded = self.operator_call(node, "[]", obj, [node.index], [index]) \
            if isinstance(obj, T.StructType) and index is not ERROR else None
        if overloaded is not None:
            return overloaded
        if index is not ERROR and not (isinstance(index, T.ScalarType) and index.kind != "bool"):
            self.error(f"array subscript must be an integer, not '{index}'", node.index.coord)
        if isinstance(obj, T.ArrayType):
            self.check_index_range(node, obj.size, "array")
            return obj.element
        if isinstance(obj, T.VectorType):
            self.check_index_range(node, obj.size, "vector")
            return obj.element
        if isinstance(obj, T.MatrixType):
            self.check_index_range(node, obj.rows, "matrix")
            return obj.row_type
        self.error(f"subscripted value of type '{obj}' is not an array, vector or matrix", node.coord)
        return ERROR

    def check_index_range(self, node: ast.Index, size: int | None, what: str) -> None:
        constant = self.constant_int(node.index)
        if constant is not None and size is not None and not 0 <= constant < size:
            article = "an" if what == "array" else "a"
            self.error(f"index {constant} is out of range for {article} {what} of {size} elements",
                       node.index.coord)

    def index_resource(self, node: ast.Index, obj: T.ResourceType, index: T.Type) -> T.Type:
        if obj.element is None:
            self.error(f"'{obj}' has no [] operator; use Load/Store", node.coord)
            return ERROR
        if obj.kind in ("AppendStructuredBuffer", "ConsumeStructuredBuffer"):
            self.error(f"'{obj}' has no [] operator; use {obj.kind[:-len('StructuredBuffer')]}", node.coord)
            return ERROR
        if index is ERROR:
            return obj.element
        dims = obj.coord_dims
        expected = T.vector(T.UINT, dims)
        cost = conversion_cost(index, expected) if index.is_numeric else None
        if cost is None or shape_of(index) != shape_of(expected):
            self.error(f"'{obj}' is indexed with a {expected}, not '{index}'", node.index.coord)
        return obj.element

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
        if isinstance(expr, ast.Conditional):
            cond = self.constant_int(expr.cond)
            if cond is None:
                return None
            return self.constant_int(expr.then if cond else expr.otherwise)
        if isinstance(expr, ast.Cast):
            return self.constant_int(expr.expr)
        if isinstance(expr, ast.Identifier):
            decl = self.scope.lookup(expr.name)
            if isinstance(decl, ast.VarDecl) and "const" in decl.modifiers and decl.init is not None:
                if decl.storage in ("static", "local") and not isinstance(decl.init, ast.InitList):
                    return self.constant_int(decl.init)
        return None


def _fold(op: str, left: int, right: int) -> int | None:
    if op in ("/", "%"):
        if right == 0:
            return None
        quotient = abs(left) // abs(right) * (1 if (left < 0) == (right < 0) else -1)  # C truncation
        return quotient if op == "/" else left - quotient * right
    if op in ("<<", ">>") and not 0 <= right < 64:
        return None
    operations = {
        "+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
        "<<": lambda: left << right, ">>": lambda: left >> right,
        "&": lambda: left & right, "|": lambda: left | right, "^": lambda: left ^ right,
        "<": lambda: int(left < right), ">": lambda: int(left > right), "<=": lambda: int(left <= right),
        ">=": lambda: int(left >= right), "==": lambda: int(left == right), "!=": lambda: int(left != right),
        "&&": lambda: int(bool(left and right)), "||": lambda: int(bool(left or right)),
    }
    operation = operations.get(op)
    return operation() if operation else None


def _element_bits(t: T.Type, kind: str) -> int:
    """The bit width of ``t``'s element when it is of ``kind`` (scalar, vector or matrix), else 0."""
    element = getattr(t, "element", t)
    return element.bits if isinstance(element, T.ScalarType) and element.kind == kind else 0


def is_untyped_literal(expr) -> bool:
    """``1``, ``-0.5``: a literal without a suffix, whose type adapts to its context."""
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
        if param.direction == "in":
            cost = conversion_cost(arg_type, param.type)
        else:  # the value is copied back: both directions must convert (out only back)
            back = conversion_cost(param.type, arg_type)
            there = conversion_cost(arg_type, param.type) if param.direction == "inout" else back
            cost = None if back is None or there is None else max(back, there)
        if cost is None:
            return None
        costs.append(cost)
    return (max(costs, default=0), sum(costs))


def _no_viable(overloads, arg_types) -> bool:
    return all(_call_cost(func, arg_types) is None for func in overloads)
