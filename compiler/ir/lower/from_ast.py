"""AST to IR: ``lower(program, wave_size, diagnostics) -> Module``.

The checked program becomes one function in SSA form over structured control
flow. The work is split by subject:

    lower/scan.py        before lowering: reachable code, used globals, dynamically
                         indexed locals (scratch), side effects
    lower/constants.py   integer constant expressions (indexes, case labels, loop bounds)
    lower/unroll.py      which counted loops unroll, and their counter values
    lower/ssa.py         blocks, instructions, constants, SSA construction (Braun et al.)
    lower/values.py      IR types, constants, implicit conversions made explicit
    lower/globals.py     bindings and registers, cbuffer packing, groupshared layout
    lower/places.py      l-values: SSA variables, scratch, LDS, cbuffers, resource elements
    lower/exprs.py       expressions, short-circuit operators
    lower/stmts.py       statements, structured control flow, structured returns
    lower/intrinsics.py  intrinsic functions
    lower/matrices.py    matrices: arrays of rows, mul, swizzles, conversions, memory layouts
    lower/resources.py   resource elements, methods, atomics

This file holds the driver: the entry point and its inputs, function inlining,
local declarations, initializer lists and static initialisers.

Every user function is inlined at its call: ``in`` arguments are copied into
fresh variables, ``out``/``inout`` arguments are places resolved once before the
call and written back after it (in parameter order), default arguments are
lowered at the call site, and the return value is the value of the callee's
result variable where its body ends (a phi when it returned from several places).
Instructions keep the coordinates of the source they came from, the callee's
lines for inlined code.
"""

from __future__ import annotations


from ...diagnostics import Coord, Diagnostics, InlineSite, nesting_guard
from ...frontend import ast
from ...frontend import hlsl_types as T
from ...frontend.resource_values import holds_resource
from ...frontend.sema import Program
from ..core import Function, Module
from .exprs import ExpressionLowering
from .globals import layout_globals, round_up, row_major, tight_size
from .intrinsics import IntrinsicLowering
from .intrinsics_composed import ComposedIntrinsics
from .intrinsics_math import TranscendentalIntrinsics
from .matrices import MatrixLowering
from .methods import MethodLowering
from .places import CBufferRoot, MemoryRoot, Place, PlaceLowering, ResourceRef, SSARoot
from .resource_cells import ResourceCells, ResourceCellsArgument, result_cells_of
from .resources import ResourceLowering
from .constants import constant_int
from .scan import ProgramScan, SideEffects
from .ssa import FunctionBuilder, Var
from .stmts import StatementLowering
from .values import Unsupported, ValueLowering, components, ir_type
from ..ops import Op

THREAD_INPUTS = {
    "sv_groupid": ("group_id", T.VectorType(T.UINT, 3)),
    "sv_groupthreadid": ("group_thread_id", T.VectorType(T.UINT, 3)),
    "sv_dispatchthreadid": ("dispatch_thread_id", T.VectorType(T.UINT, 3)),
    "sv_groupindex": ("group_index", T.UINT),
}


# Local arrays indexed dynamically live in scratch, per thread: shc's limit (README,
# "Limits"); a group of 1,024 threads at the limit needs 64 MiB of it.
MAX_SCRATCH_BYTES = 64 * 1024


def lower(program: Program, wave_size: int, diagnostics: Diagnostics) -> Module:
    """Lower a checked program to an IR module (errors go to ``diagnostics``). Lowering
    recurses once per nesting level of the source, so it runs under the nesting guard
    every stage uses."""
    with nesting_guard(diagnostics, program.entry.coord):
        return Lowerer(program, wave_size, diagnostics).run()


# ---------------------------------------------------------------------- frames
class Frame:
    """One function being lowered (the entry, or an inlined call)."""

    def __init__(self, func: ast.FuncDecl, result: Var | None):
        self.func = func
        self.vars: dict = {}  # decl -> SSARoot | MemoryRoot; (decl, ...) -> a resource cell (lower/resource_cells.py)
        self.result = result
        self.returned = Var(f"{func.name}.returned", T.BOOL)
        self.breakables: list = []


class Lowerer(ExpressionLowering, StatementLowering, IntrinsicLowering, ComposedIntrinsics, TranscendentalIntrinsics,
              MethodLowering, ResourceLowering, ResourceCells, MatrixLowering, PlaceLowering, ValueLowering,
              ast.NodeVisitor):
    def __init__(self, program: Program, wave_size: int, diagnostics: Diagnostics):
        self.program = program
        self.diagnostics = diagnostics
        entry = program.entry
        self.scan = ProgramScan(program)
        self.globals = layout_globals(program, self.scan.used, diagnostics)
        function = Function(entry.name, numthreads=program.numthreads,
                            wave_size=program.wave_size or wave_size, coord=entry.coord)
        self.b = FunctionBuilder(function)
        self.module = Module(function, list(self.globals.bindings), list(self.globals.groupshared.values()),
                             0, entry.coord.file, value_names=self.b.value_names,
                             value_exprs=self.b.value_exprs)
        self.frame: Frame | None = None
        self.global_vars: dict = {}  # static decl -> SSARoot | MemoryRoot
        self.scratch: dict = {}  # decl -> MemoryRoot
        self.scratch_names: set[str] = set()
        self.var_types: dict = {}  # declarations whose size came from their initializer
        self.last_jump = None
        self.side_effects = SideEffects()
        self.unroller = self.scan.unroller
        self.unrolled: dict = {}  # counter decl -> its value in the iteration being lowered
        self.warned_loops: set = set()
        self.object_writers: dict = {}  # method -> whether it writes its object (lower/methods.py)

    def constant_int(self, node) -> int | None:
        return constant_int(node, self.unrolled)

    def has_side_effects(self, node) -> bool:
        return self.side_effects.has_side_effects(node)

    # ------------------------------------------------------------ driver
    def run(self) -> Module:
        entry = self.program.entry
        block = self.b.new_block("entry", entry.coord)
        self.b.seal(block)
        self.b.start(block)
        self.frame = Frame(entry, None)
        self.b.write(self.frame.returned, self.const(T.BOOL, False, entry.coord))
        try:
            self.bind_entry_inputs(entry)
            self.initialise_statics()
            self.statements(entry.body.items)
        except Unsupported as failure:
            # One clear error; the half-built function is not worth finishing.
            self.diagnostics.error(str(failure), failure.coord)
            return self.module
        if self.b.block is not None:
            self.b.ret(entry.coord)
        self.b.finish()
        return self.module

    def bind_entry_inputs(self, entry: ast.FuncDecl) -> None:
        for param in entry.params:
            if param not in self.scan.params or param.semantic is None:
                continue
            which, semantic_type = THREAD_INPUTS[param.semantic.lower()]
            value = self.b.prelude_inst(Op.THREAD_INPUT, [], semantic_type, {"which": which}, param.coord)
            param_type = ir_type(param.type, param.coord)
            root = self.new_variable(param, param_type)
            self.frame.vars[param] = root
            self.initialise(root, param_type, self.convert(value, param_type, param.coord), param.coord)

    def initialise_statics(self) -> None:
        for decl in self.scan.statics:
            var_type = self.declared_type(decl)
            root = self.new_variable(decl, var_type)
            self.global_vars[decl] = root
            value = self.initial_value(decl, var_type)
            if value is None:
                value = self.zero(var_type, decl.coord)
            self.initialise(root, var_type, value, decl.coord)

    # --------------------------------------------------------- variables
    def variable(self, decl, coord: Coord):
        root = self.frame.vars.get(decl)
        if root is None:
            root = self.global_vars.get(decl)
        if root is not None:
            return root
        storage = getattr(decl, "storage", None)
        if storage == "groupshared":
            var = self.globals.groupshared[decl]
            return MemoryRoot("lds", var.name, var.offset, self.globals.stored(decl.type, row_major=True))
        if storage in ("cbuffer", "uniform"):
            buffer, offset = self.globals.cbuffer_member[decl]
            return CBufferRoot(buffer, offset, self.globals.stored(decl.type, row_major(decl)))
        if storage == "resource":
            binding = self.globals.binding_of[decl]
            return ResourceRef(binding, decl.type)
        raise Unsupported(f"the variable '{decl.name}' here", coord)

    def root_type(self, decl, coord: Coord) -> T.Type:
        if decl in self.var_types:
            return self.var_types[decl]
        return ir_type(decl.type, coord)

    def declared_type(self, decl) -> T.Type:
        var_type = ir_type(decl.type, decl.coord)
        if isinstance(var_type, T.ArrayType) and var_type.size is None and isinstance(decl.init, ast.InitList):
            count = sum(self.scalar_count(item) for item in decl.init.items)
            var_type = T.ArrayType(var_type.element, count // max(1, _scalars_of(var_type.element)))
            self.var_types[decl] = var_type
        return var_type

    def new_variable(self, decl, var_type: T.Type):
        if decl not in self.scan.scratch:
            return SSARoot(Var(decl.name, var_type))
        root = self.scratch.get(decl)
        if root is None:
            name = decl.name
            while name in self.scratch_names:
                name += "'"
            self.scratch_names.add(name)
            offset = round_up(self.module.scratch_bytes, 4)
            if offset + tight_size(var_type) > MAX_SCRATCH_BYTES:
                self.diagnostics.error(
                    f"local arrays need {offset + tight_size(var_type)} bytes of scratch per thread here; "
                    f"the limit is {MAX_SCRATCH_BYTES} (64 KiB)", decl.coord)
            self.module.scratch_bytes = offset + tight_size(var_type)
            layout = self.globals.stored(decl.type, row_major=True)
            if isinstance(layout, T.ArrayType) and layout.size is None:  # sized by its initializer
                layout = T.ArrayType(layout.element, var_type.size)
            root = self.scratch[decl] = MemoryRoot("scratch", name, offset, layout)
        return root

    def initial_value(self, decl, var_type: T.Type):
        if decl.init is None:
            return None
        if isinstance(decl.init, ast.InitList):
            return self.init_list(decl.init.items, var_type, decl.init.coord)
        return self.expr_as(decl.init, var_type, decl.init.coord)

    def initialise(self, root, var_type: T.Type, value, coord: Coord) -> None:
        if value is None:
            if isinstance(root, SSARoot):
                self.b.write(root.var, self.b.undef(var_type, coord))
            return
        self.store(Place(root, var_type), value, coord)

    def declare_local(self, decl: ast.VarDecl) -> None:
        if decl.storage == "static":
            return  # initialised once, in the entry block
        if isinstance(self.innermost_type(decl.type), (T.ResourceType, T.SamplerType)):
            if isinstance(decl.init, ast.InitList):
                self.init_resource_list(decl, decl.init.items)
            elif decl.init is not None:
                self.set_cells((decl,), self.cells_of(decl.init))
            return
        var_type = self.declared_type(decl)
        value = self.initial_value(decl, var_type)
        root = self.new_variable(decl, var_type)
        self.frame.vars[decl] = root
        self.initialise(root, var_type, value, decl.coord)
        if holds_resource(decl.type):  # a struct with resource members: their cells too
            self.set_cells((decl,), self.cells_of(decl.init, evaluated=True) if decl.init is not None else {})

    # --------------------------------------------------- initializer lists
    def scalar_count(self, item) -> int:
        if isinstance(item, ast.InitList):
            return sum(self.scalar_count(sub) for sub in item.items)
        return _scalars_of(ir_type(item.type, item.coord))

    def init_list(self, items: list, target: T.Type, coord: Coord):
        """``{...}``: element by element when the items line up, else HLSL's flattening."""
        target = ir_type(target, coord)
        elements = _element_types(target)
        if len(items) == len(elements) and all(_fits(item, element) for item, element in zip(items, elements)):
            parts = [self.init_list(item.items, element, item.coord) if isinstance(item, ast.InitList)
                     else self.expr_as(item, element, item.coord)
                     for item, element in zip(items, elements)]
        else:
            scalars = []
            for item in items:
                scalars.extend(self.flatten(item))
            scalars.reverse()
            return self.rebuild(scalars, target, coord)
        if isinstance(target, T.ScalarType):
            return parts[0]
        if isinstance(target, T.VectorType):
            return self.construct(parts, target, coord)
        return self.b.emit(Op.CONSTRUCT, parts, target, None, coord)

    def flatten(self, item) -> list:
        if isinstance(item, ast.InitList):
            return [scalar for sub in item.items for scalar in self.flatten(sub)]
        return self.leaves(self.expr(item), item.coord)

    def leaves(self, value, coord: Coord) -> list:
        t = value.type
        if isinstance(t, T.ScalarType):
            return [value]
        count = t.size if isinstance(t, (T.VectorType, T.ArrayType)) else len(t.fields)
        return [leaf for k in range(count) for leaf in self.leaves(self.extract(value, k, coord), coord)]

    def rebuild(self, scalars: list, target: T.Type, coord: Coord):
        target = ir_type(target, coord)
        if isinstance(target, T.ScalarType):
            return self.convert(scalars.pop(), target, coord)
        if isinstance(target, T.VectorType):
            parts = [self.convert(scalars.pop(), target.element, coord) for _ in range(target.size)]
            return self.construct(parts, target, coord)
        parts = [self.rebuild(scalars, element, coord) for element in _element_types(target)]
        return self.b.emit(Op.CONSTRUCT, parts, target, None, coord)

    # ----------------------------------------------------------- inlining
    def inline_call(self, node, func: ast.FuncDecl, receiver: tuple | None = None, args: list | None = None):
        """Inline ``func`` at ``node`` (a call, or an operator with its ``args``); a method's object
        is ``receiver`` (value, place or None; lower/methods.py), by default the calling method's own."""
        coord = node.coord
        args = node.args if args is None else args
        if func.body is None:
            raise Unsupported(f"a call of '{func.name}', which has no body", coord)
        arguments, writebacks, params = [], [], list(func.params)
        cells: dict = {}  # parameter -> the cells of its resource-holding struct argument
        resource_outs = []  # (parameter, argument): out/inout parameters holding resources
        this_key = None  # the cells of a method's object holding resources
        if func.this_param is not None:
            value, place = receiver if receiver is not None else self.implicit_receiver(coord)
            arguments.append(self.convert(value, ir_type(func.this_param.type, coord), coord))
            if place is not None:
                writebacks.append((func.this_param, place))
            params.insert(0, func.this_param)
            this_key = self.receiver_key(node, receiver, func.this_param)
            if this_key is not None:
                cells[func.this_param] = self.cells_of_key(this_key)
        for index, param in enumerate(func.params):
            arg = args[index] if index < len(args) else param.default
            if holds_resource(param.type) and param.direction != "in":
                resource_outs.append((param, arg))
            if isinstance(self.innermost_type(param.type), (T.ResourceType, T.SamplerType)):
                arguments.append(ResourceCellsArgument({} if param.direction == "out" else self.cells_of(arg)))
                continue
            if holds_resource(param.type) and param.direction == "inout":
                cells[param] = self.cells_of(arg)
            param_type = ir_type(param.type, param.coord)
            direction = param.direction
            if direction == "in":
                arguments.append(self.expr_as(arg, param_type, arg.coord))
                if holds_resource(param.type):  # a struct holding resources: after its value
                    cells[param] = self.cells_of(arg, evaluated=True)
                continue
            place = self.place(arg)
            writebacks.append((param, place))
            arguments.append(self.convert(self.load(place, arg.coord), param_type, arg.coord)
                             if direction == "inout" else None)
        result = None if func.type == T.VOID or isinstance(self.innermost_type(func.type), (T.ResourceType, T.SamplerType)) \
            else Var(f"{func.name}.result", ir_type(func.type, func.coord))
        caller, self.frame = self.frame, Frame(func, result)
        outer_chain = self.b.inline_chain
        self.b.inline_chain = (InlineSite(func.name, self.b.placed(coord)),) + outer_chain
        self.b.write(self.frame.returned, self.const(T.BOOL, False, coord))
        for param, value in zip(params, arguments):
            if isinstance(value, ResourceCellsArgument):
                self.set_cells((param,), value.cells)
                continue
            param_type = ir_type(param.type, param.coord)
            root = self.new_variable(param, param_type)
            self.frame.vars[param] = root
            self.initialise(root, param_type, value, param.coord)
            self.set_cells((param,), cells.get(param, {}))
        try:
            self.statements(func.body.items)
            self.last_result_cells = result_cells_of(self.frame)
            if self.b.block is None:
                raise Unsupported(f"a call of '{func.name}' whose end is never reached", coord)
            value = self.b.read(result) if result is not None else None
            outputs = [self.load(Place(self.frame.vars[param], ir_type(param.type, param.coord)), coord)
                       for param, _ in writebacks]
            resource_outputs = [(arg, self.cells_of_key((param,))) for param, arg in resource_outs]
            this_cells = self.cells_of_key((func.this_param,)) if this_key is not None else None
        finally:
            self.frame = caller
            self.b.inline_chain = outer_chain
        for (param, place), output in zip(writebacks, outputs):
            self.write_back(place, output, coord)
        for arg, out_cells in resource_outputs:
            self.set_cells(self.resource_key(arg, for_write=True), out_cells)
        if this_key is not None:
            self.set_cells(this_key, this_cells)
        return value

def _scalars_of(t: T.Type) -> int:
    if isinstance(t, T.ArrayType):
        return (t.size or 0) * _scalars_of(t.element)
    if isinstance(t, T.StructType):
        return sum(_scalars_of(field_type) for _, field_type in t.fields)
    return components(t)


def _element_types(t: T.Type) -> list[T.Type]:
    if isinstance(t, T.ArrayType):
        return [t.element] * (t.size or 0)
    if isinstance(t, T.StructType):
        return [field_type for _, field_type in t.fields]
    if isinstance(t, T.VectorType):
        return [t.element] * t.size
    return [t]


def _fits(item, element: T.Type) -> bool:
    """An initializer item that converts to ``element`` as a whole."""
    if isinstance(item, ast.InitList):
        return not isinstance(element, T.ScalarType)
    item_type = ir_type(item.type, item.coord)
    element = ir_type(element, item.coord)
    if item_type == element:
        return True
    if isinstance(element, (T.ScalarType, T.VectorType)) and isinstance(item_type, (T.ScalarType, T.VectorType)):
        return components(item_type) == components(element)
    return False
