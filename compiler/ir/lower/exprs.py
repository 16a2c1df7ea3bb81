"""Expressions: each AST expression becomes instructions and yields its value.

Binary operators compute in the type sema gave the expression (comparisons in
the operands' common type), after explicit conversions of both operands.
``&&``, ``||`` and ``?:`` on scalars become ``and``/``or``/``select`` when the
operands they might skip have no side effects (no assignments, no calls of
functions that write anything, no memory writes, atomics, barriers or wave ops,
whose results depend on which lanes run them); otherwise they become control
flow with the short-circuit HLSL 2021 specifies. On vectors, and always in
HLSL 2018 (``-HV 2018``: no short-circuit), every operand is evaluated. On
matrices operators work a row at a time (``emit_op``, lower/matrices.py).
"""

from __future__ import annotations

from ...diagnostics import Coord
from ...frontend import ast
from ...frontend import hlsl_types as T
from ...frontend.conversions import binary_shape, with_shape
from ...frontend.expressions import ExpressionChecker
from ...frontend.resource_access import is_mips_access
from ...frontend.resource_values import holds_resource
from ..core import Inst
from .expr_text import expression_text
from .places import Place, ResourceRef, ValueRoot
from .ssa import Var
from .matrices import with_scalar
from .values import Unsupported, components, ir_type
from ..ops import Op

BINARY_OPS = {
    "+": Op.ADD, "-": Op.SUB, "*": Op.MUL, "/": Op.DIV, "%": Op.REM, "&": Op.AND, "|": Op.OR,
    "^": Op.XOR, "<<": Op.SHL, ">>": Op.SHR,
}
COMPARISONS = {"==": Op.EQ, "!=": Op.NE, "<": Op.LT, "<=": Op.LE, ">": Op.GT, ">=": Op.GE}


def operand_element(left_expr, right_expr) -> T.ScalarType:
    """The element type a binary operator computes in (sema's rule, literals adapt)."""
    return ExpressionChecker.operand_element(None, left_expr, left_expr.type, right_expr, right_expr.type)


class ExpressionLowering:
    """Mixin: ``expr(node)`` lowers an expression; ``place(node)`` an l-value."""

    def expr(self, node) -> Inst:
        value = self.visit(node)
        if isinstance(value, Inst) and value.op is not Op.CONST and value not in self.b.value_exprs:
            text = expression_text(node)
            if text:
                self.b.value_exprs[value] = text  # the innermost expression that made it names it
        return value

    def generic_visit(self, node):
        raise Unsupported(f"the expression '{type(node).__name__}'", node.coord)

    # ------------------------------------------------------------- leaves
    def visit_IntLiteral(self, node: ast.IntLiteral) -> Inst:
        return self.const(node.type, node.value, node.coord)

    def visit_FloatLiteral(self, node: ast.FloatLiteral) -> Inst:
        return self.const(node.type, node.value, node.coord)

    def visit_BoolLiteral(self, node: ast.BoolLiteral) -> Inst:
        return self.const(T.BOOL, node.value, node.coord)

    def visit_Identifier(self, node: ast.Identifier) -> Inst:
        return self.load(self.place(node), node.coord)

    def visit_Member(self, node: ast.Member) -> Inst:
        return self.load(self.place(node), node.coord)

    def visit_Index(self, node: ast.Index) -> Inst:
        return self.load(self.place(node), node.coord)

    def visit_InitList(self, node: ast.InitList) -> Inst:
        raise Unsupported("an initializer list outside a declaration", node.coord)

    # -------------------------------------------------------------- places
    def place(self, node) -> Place:
        coord = node.coord
        if isinstance(node, ast.Identifier) and isinstance(node.decl, ast.FieldRef):  # x meaning this.x
            this = node.decl.this_param
            base = Place(self.variable(this, coord), ir_type(this.type, coord))
            return self.add_step(base, "member", node.decl.index, coord)
        if isinstance(node, ast.Identifier):
            root = self.variable(node.decl, coord)
            if isinstance(root, ResourceRef):
                raise Unsupported(f"the resource '{node.name}' used as a value", coord)
            return Place(root, self.root_type(node.decl, coord))
        if isinstance(node, ast.Member) and not isinstance(node.obj.type, T.ResourceType):
            base = self.place(node.obj)
            if node.swizzle is not None:
                return self.add_step(base, "swizzle", node.swizzle, coord)
            names = [name for name, _ in base.result_type.fields]
            return self.add_step(base, "member", names.index(node.name), coord)
        if isinstance(node, ast.Index) and node.decl is not None:  # a struct's operator[]: a value
            value = self.inline_call(node, node.decl, self.receiver(node.obj, node.decl), [node.index])
            return Place(ValueRoot(value), self.expr_type(node))
        if isinstance(node, ast.Index):
            if is_mips_access(node) and isinstance(node.obj.type, T.ResourceType):  # tex.mips[level][pos]
                root = self.mip_element(node)
                return Place(root, ir_type(root.ref.type.element, coord))
            if isinstance(node.obj.type, T.ResourceType):
                ref = self.resource_ref(node.obj)
                root = self.element_root(ref, node.index)
                return Place(root, ir_type(ref.type.element, coord))
            if isinstance(node.obj.type, T.ArrayType) and isinstance(self.innermost_type(node.obj.type),
                                                                     (T.ResourceType, T.SamplerType)):
                raise Unsupported("a resource array element used as a value", coord)
            base = self.place(node.obj)
            return self.add_step(base, "index", self.checked_index(node), coord)
        return Place(ValueRoot(self.expr(node)), self.expr_type(node))

    def checked_index(self, node: ast.Index) -> int | Inst:
        """The index operand; one that only became a constant here (an unrolled loop's counter)
        gets the range check the checker gives literal indexes, instead of reaching past the
        value."""
        index = self.index_operand(node.index)
        obj = node.obj.type
        sizes = {T.ArrayType: ("an array", getattr(obj, "size", None)),
                 T.VectorType: ("a vector", getattr(obj, "size", None)),
                 T.MatrixType: ("a matrix", getattr(obj, "rows", None))}
        what, size = sizes.get(type(obj), ("", None))
        if isinstance(index, int) and size is not None and not 0 <= index < size:
            where = node.index.coord
            if not any(item.coord == where for item in self.diagnostics.items):  # once, not per iteration
                self.diagnostics.error(f"index {index} is out of range for {what} of {size} elements", where)
            return 0
        return index

    @staticmethod
    def innermost_type(t: T.Type) -> T.Type:
        while isinstance(t, T.ArrayType):
            t = t.element
        return t

    def expr_type(self, node) -> T.Type:
        return ir_type(node.type, node.coord)

    def index_operand(self, index_node) -> int | Inst:
        constant = self.constant_int(index_node)
        if constant is not None:
            return constant
        return self.expr_as(index_node, T.UINT, index_node.coord)

    # ----------------------------------------------------------- operators
    def visit_Binary(self, node: ast.Binary) -> Inst:
        if node.decl is not None:  # a struct's operator method (lower/methods.py)
            return self.inline_call(node, node.decl, self.receiver(node.left, node.decl), [node.right])
        op, coord = node.op, node.coord
        result = self.expr_type(node)
        if op in ("&&", "||"):
            return self.logical(node, result)
        if op in COMPARISONS:
            element = operand_element(node.left, node.right)
            operand_type = with_scalar(result, element)
            left = self.expr_as(node.left, operand_type, node.left.coord)
            right = self.expr_as(node.right, operand_type, node.right.coord)
            return self.emit_op(COMPARISONS[op], [left, right], result, None, coord)
        left = self.expr_as(node.left, result, node.left.coord)
        right = self.expr_as(node.right, result, node.right.coord)
        return self.emit_op(BINARY_OPS[op], [left, right], result, None, coord)

    @property
    def short_circuits(self) -> bool:
        """HLSL 2021's ``&&``, ``||`` and scalar ``?:`` skip an operand; HLSL 2018's never do."""
        return self.program.language.hlsl_version >= 2021

    def logical(self, node: ast.Binary, result: T.Type) -> Inst:
        coord = node.coord
        left = self.expr_as(node.left, result, node.left.coord)
        op = Op.AND if node.op == "&&" else Op.OR
        if not isinstance(result, T.ScalarType) or not self.short_circuits or not self.has_side_effects(node.right):
            right = self.expr_as(node.right, result, node.right.coord)
            return self.emit_op(op, [left, right], result, None, coord)
        temp = Var(f"{node.op}.value", T.BOOL)
        self.b.write(temp, left)
        label = "and" if node.op == "&&" else "or"
        number = self.b.next_id()
        header = self.fresh_header(coord)
        rhs = self.b.new_block(f"{label}.rhs{number}", coord)
        end = self.b.new_block(f"{label}.end{number}", coord)
        header.kind, header.merge = "if", end
        if node.op == "&&":
            self.b.cond_branch(left, rhs, end, coord)
        else:
            self.b.cond_branch(left, end, rhs, coord)
        self.b.seal(rhs)
        self.b.start(rhs)
        self.b.write(temp, self.expr_as(node.right, result, node.right.coord))
        self.b.branch(end, coord)
        self.b.seal(end)
        self.b.start(end)
        return self.b.read(temp)

    def visit_Conditional(self, node: ast.Conditional) -> Inst:
        coord = node.coord
        result = self.expr_type(node)
        side_effects = self.has_side_effects(node.then) or self.has_side_effects(node.otherwise)
        # HLSL 2021: a scalar condition short-circuits whatever the arms' type (a wave op in an
        # arm runs only on the lanes that choose it). HLSL 2018 evaluates both arms, and its
        # vector condition selects per component.
        vector_condition = not isinstance(node.cond.type, T.ScalarType)
        both = not self.short_circuits
        if isinstance(result, (T.ScalarType, T.VectorType)) and (vector_condition or both or not side_effects):
            cond = self.expr_as(node.cond, T.with_element(result, T.BOOL), node.cond.coord)
            then = self.expr_as(node.then, result, node.then.coord)
            otherwise = self.expr_as(node.otherwise, result, node.otherwise.coord)
            return self.b.emit(Op.SELECT, [cond, then, otherwise], result, None, coord)
        cond = self.to_bool(self.expr(node.cond), node.cond.coord)
        arms = [node.then, node.otherwise]
        evaluated = [self.expr_as(arm, result, arm.coord) for arm in arms] if both else None
        temp = Var("?:.value", result)
        number = self.b.next_id()
        header = self.fresh_header(coord)
        then_block = self.b.new_block(f"cond.then{number}", coord)
        else_block = self.b.new_block(f"cond.else{number}", coord)
        end = self.b.new_block(f"cond.end{number}", coord)
        header.kind, header.merge = "if", end
        self.b.cond_branch(cond, then_block, else_block, coord)
        for index, (block, arm) in enumerate(zip((then_block, else_block), arms)):
            self.b.seal(block)
            self.b.start(block)
            self.b.write(temp, evaluated[index] if both else self.expr_as(arm, result, arm.coord))
            self.b.branch(end, coord)
        self.b.seal(end)
        self.b.start(end)
        return self.b.read(temp)

    def visit_Unary(self, node: ast.Unary) -> Inst:
        if node.decl is not None:  # a struct's operator method
            return self.inline_call(node, node.decl, self.receiver(node.operand, node.decl), [])
        op, coord = node.op, node.coord
        result = self.expr_type(node)
        if op in ("++", "--"):
            place = self.place(node.operand)
            old = self.load(place, coord)
            arithmetic = Op.ADD if op == "++" else Op.SUB
            new = self.emit_op(arithmetic, [old, self.one(old.type, coord)], old.type, None, coord)
            self.store(place, new, coord)
            return old if node.postfix else new
        value = self.expr_as(node.operand, result, node.operand.coord)
        if op == "+":
            return value
        if op == "-":
            if self.is_const(value) and not isinstance(value.attrs["value"], list):
                return self.const(result, -value.attrs["value"], coord)
            return self.emit_op(Op.NEG, [value], result, None, coord)
        return self.emit_op(Op.NOT, [value], result, None, coord)  # "!" on bools, "~" on integers

    def visit_Assign(self, node: ast.Assign) -> Inst:
        coord = node.coord
        if isinstance(self.innermost_type(node.target.type), (T.ResourceType, T.SamplerType)):
            self.assign_resources(node.target, node.value)  # a compile-time choice (lower/resource_cells.py)
            return None
        if node.op == "=" and holds_resource(node.target.type):  # a struct with resource members
            value = self.expr_as(node.value, self.place(node.target).result_type, node.value.coord)
            self.assign_resources(node.target, node.value, evaluated=True)
            self.store(self.place(node.target), value, coord)
            return value
        place = self.place(node.target)
        target = place.result_type
        if node.op == "=":
            value = self.expr_as(node.value, target, node.value.coord)
        else:
            operator = node.op[:-1]
            old = self.load(place, coord)
            rhs = self.expr(node.value)
            element = operand_element(node.target, node.value)
            shape = binary_shape(node.target.type, node.value.type)
            compute = ir_type(with_shape(element, shape[0], shape[1]) if shape else target, coord)
            if operator in BINARY_OPS and element == T.BOOL:
                compute = with_scalar(compute, T.INT)
            left = self.convert(old, compute, coord)
            right = self.convert(rhs, compute, node.value.coord)
            value = self.emit_op(BINARY_OPS[operator], [left, right], compute, None, coord)
            value = self.convert(value, target, coord)
        self.store(place, value, coord)
        return value

    def visit_Comma(self, node: ast.Comma) -> Inst:
        value = None
        for item in node.exprs:
            value = self.expr(item)
        return value

    # ------------------------------------------------ casts, constructors
    def visit_Cast(self, node: ast.Cast) -> Inst:
        target = self.expr_type(node)
        value = self.expr(node.expr)
        if isinstance(target, T.StructType) or isinstance(target, T.ArrayType):
            if value.type == target:
                return value
            if isinstance(value.type, T.ScalarType):
                return self.splat_aggregate(value, target, node.coord)
            if isinstance(value.type, T.StructType) and isinstance(target, T.StructType):
                return self.convert(value, target, node.coord)  # (Base)derived: its first fields
        if isinstance(node.type, T.ArrayType) or isinstance(node.expr.type, T.ArrayType):
            return self.flat_cast(value, target, node.coord)
        if isinstance(target, T.StructType):
            raise Unsupported(f"a cast from '{value.type}' to '{target}'", node.coord)
        return self.convert(value, target, node.coord)

    def flat_cast(self, value: Inst, target: T.Type, coord: Coord) -> Inst:
        """An element-wise cast to or from an array: ``target`` rebuilt from the first
        scalars of ``value`` in order (matrices row by row), each converted."""
        scalars = self.leaves(value, coord)
        if len(scalars) == 1:
            return self.splat_aggregate(scalars[0], target, coord)
        return self.rebuild(scalars[::-1], target, coord)  # rebuild pops from the end: first scalars first

    def splat_aggregate(self, scalar: Inst, target: T.Type, coord: Coord) -> Inst:
        """``(S)x``: every scalar of the struct or array set to ``x``."""
        if isinstance(target, (T.ScalarType, T.VectorType)):
            return self.convert(scalar, target, coord)
        if isinstance(target, T.ArrayType):
            parts = [self.splat_aggregate(scalar, target.element, coord) for _ in range(target.size or 0)]
        else:
            parts = [self.splat_aggregate(scalar, ir_type(field_type, coord), coord)
                     for _, field_type in target.fields]
        return self.b.emit(Op.CONSTRUCT, parts, target, None, coord)

    def visit_Construct(self, node: ast.Construct) -> Inst:
        target = self.expr_type(node)
        coord = node.coord
        values = [self.expr(arg) for arg in node.args]
        if isinstance(target, T.ScalarType) or (len(values) == 1 and components(values[0].type) == 1
                                                and not isinstance(values[0].type, T.ArrayType)):
            return self.convert(values[0], target, coord)
        if isinstance(target, T.ArrayType):  # a matrix: float2x2(1, 2, 3, 4), float2x2(v0, v1), float3x3(m)
            if len(values) == 1 and isinstance(values[0].type, T.ArrayType):
                return self.convert(values[0], target, coord)
            scalars = [scalar for value in values for scalar in self.leaves(value, coord)]
            return self.rows_from_scalars(scalars, target, coord)
        parts = [self.convert_element(value, target.element, coord) for value in values]
        if len(parts) == 1:
            return self.convert(parts[0], target, coord)
        return self.construct(parts, target, coord)

    # --------------------------------------------------------------- calls
    def visit_Call(self, node: ast.Call) -> Inst | None:
        if isinstance(node.decl, ast.FuncDecl):
            return self.inline_call(node, node.decl)
        return self.lower_intrinsic(node, node.decl)

    def call_arguments(self, args, param_types, out_params) -> tuple[list, dict[int, Place]]:
        """Arguments in order: values converted to their parameter types, places for out/inout."""
        values: list = []
        places: dict[int, Place] = {}
        for index, arg in enumerate(args):
            param_type = param_types[index]
            if index in out_params:
                places[index] = self.place(arg)
                values.append(None)
            elif isinstance(param_type, (T.SamplerType, T.ResourceType)):
                values.append(None)
            else:
                values.append(self.expr_as(arg, param_type, arg.coord))
        return values, places
