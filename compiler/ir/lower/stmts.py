"""Statements: structured control flow, declarations, and ``return`` kept structured.

Shapes (``n`` numbers each construct; blocks are laid out in source order):

    if        header {kind=if, merge=if.end<n>}: cond_br c, if.then<n>, if.else<n> (or if.end<n>)
    for       a counted loop that unrolls (lower/unroll.py) is its body once per iteration,
              the counter a constant in each; otherwise as while
    for/while loop.header<n> {kind=loop, merge=loop.end<n>, cont=loop.cont<n>}: phis, the
              condition, cond_br c, loop.body<n>, loop.end<n>; the step lives in loop.cont<n>,
              which branches back to the header
    do-while  loop.header<n>: br loop.body<n>; loop.cont<n> evaluates the condition:
              cond_br c, loop.header<n>, loop.end<n>
    switch    header {kind=switch, merge=switch.end<n>}: switch x {cases=[...]},
              targets [default (or the merge), switch.case<n>_<value>...]; a case body that
              does not end in break falls through to the next case's block

``break`` branches to the innermost loop or switch merge, ``continue`` to the loop's
continue block. ``return`` never leaves a region sideways: it writes the return value
(and sets the function's ``returned`` flag) and either falls through to the end of the
enclosing ``if`` arm or, inside a loop or switch, breaks out of the innermost loop (or
switch). What follows a statement that may have returned runs under ``if
(!returned)`` (or, inside a loop, ``if (returned) break``); the common ``if (c) return
...; rest`` puts ``rest`` in the else arm instead. So a function has one end, where
the return value is a phi, and the entry function one ``ret``.
"""

from __future__ import annotations

from ...frontend import ast
from ...frontend import hlsl_types as T
from ...frontend.resource_values import holds_resource
from ..core import Block
from .places import Place
from .values import Unsupported, wrap_integer


class Breakable:
    """An enclosing loop or switch: where ``break`` (and ``continue``) go."""

    def __init__(self, kind: str, merge: Block, cont: Block | None = None):
        self.kind = kind  # "loop" or "switch"
        self.merge = merge
        self.cont = cont


class StatementLowering:
    """Mixin: ``statement(node)``; needs ``self.frame`` (the function being inlined)."""

    def statement(self, node) -> None:
        if self.b.block is None:
            return  # unreachable: after break or continue
        handler = getattr(self, "stmt_" + type(node).__name__, None)
        if handler is None:
            raise Unsupported(f"the statement '{type(node).__name__}'", node.coord)
        if isinstance(node, (ast.While, ast.DoWhile, ast.Switch)) or (
                isinstance(node, ast.For) and self.unroller.plan(node, self.unrolled) is None):
            self.resource_region(node, lambda: handler(node))  # lower/resource_cells.py
            return
        handler(node)

    def stmt_EmptyStmt(self, node) -> None:
        pass

    def stmt_ExprStmt(self, node: ast.ExprStmt) -> None:
        self.expr(node.expr)

    def stmt_Compound(self, node: ast.Compound) -> None:
        self.statements(node.items)

    def stmt_DeclStmt(self, node: ast.DeclStmt) -> None:
        for decl in node.decls:
            if isinstance(decl, ast.VarDecl):
                self.declare_local(decl)

    # ------------------------------------------------------ statement lists
    def statements(self, items: list) -> None:
        """A statement list, with what follows a possible ``return`` guarded."""
        for position, item in enumerate(items):
            if self.b.block is None:
                return
            rest = items[position + 1:]
            if isinstance(item, ast.Return):
                self.statement(item)
                return  # the rest is unreachable
            if isinstance(item, ast.If) and rest and not self.frame.breakables:
                then_returns = self.always_returns(item.then)
                else_returns = self.always_returns(item.otherwise)
                if then_returns != else_returns:
                    self.lower_if(item, rest_in_else=rest if then_returns else None,
                                  rest_in_then=rest if else_returns else None)
                    return
            self.statement(item)
            if self.b.block is None or not self.returns_land_after(item):
                continue
            if self.frame.breakables:
                self.break_if_returned(item.coord)
            elif rest:
                self.guard_rest(rest, item.coord)
                return

    def break_if_returned(self, coord) -> None:
        """Inside a loop or switch: ``if (returned) break`` out of the innermost loop (or switch)."""
        returned = self.b.read(self.frame.returned)
        target = self.return_target()
        number = self.b.next_id()
        header = self.fresh_header(coord)
        leave = self.b.new_block(f"ret.break{number}", coord)
        join = self.b.new_block(f"ret.join{number}", coord)
        header.kind, header.merge = "if", join
        self.b.cond_branch(returned, leave, join, coord)
        self.b.seal(leave)
        self.b.start(leave)
        self.last_jump = target.merge
        self.b.branch(target.merge, coord)
        self.b.seal(join)
        self.b.start(join)

    def guard_rest(self, rest: list, coord) -> None:
        """At function level: what follows a statement that may have returned runs under
        ``if (!returned)``."""
        returned = self.b.read(self.frame.returned)
        number = self.b.next_id()
        header = self.fresh_header(coord)
        body = self.b.new_block(f"ret.rest{number}", coord)
        join = self.b.new_block(f"ret.join{number}", coord)
        header.kind, header.merge = "if", join
        self.b.cond_branch(returned, join, body, coord)
        self.b.seal(body)
        self.b.start(body)
        self.statements(rest)
        if self.b.block is not None:
            self.b.branch(join, coord)
        self.b.seal(join)
        self.b.start(join)

    def return_target(self) -> Breakable:
        """Where a return inside loops/switches goes: the innermost loop, else the switch."""
        loops = [b for b in self.frame.breakables if b.kind == "loop"]
        return loops[-1] if loops else self.frame.breakables[-1]

    def returns_land_after(self, node) -> bool:
        """Whether control can reach the end of ``node`` after a ``return`` ran inside it.

        At function level a return falls through to the end of its region, so any
        statement holding one. Inside a loop a return breaks out of the innermost loop:
        it lands right after that loop; inside switches only, after the innermost switch.
        """
        if not self.frame.breakables:
            return self.contains_return(node)
        if isinstance(node, (ast.For, ast.While, ast.DoWhile)):
            return self.contains_return(node)
        in_loop = any(b.kind == "loop" for b in self.frame.breakables)
        return isinstance(node, ast.Switch) and not in_loop and self.contains_return(node)

    def contains_return(self, node) -> bool:
        return self.side_effects.contains_return(node)

    def always_returns(self, node) -> bool:
        return self.side_effects.always_returns(node)

    # --------------------------------------------------------------- if
    def stmt_If(self, node: ast.If) -> None:
        self.lower_if(node)

    def fresh_header(self, coord) -> Block:
        """The current block, or a new one if it already heads a region."""
        if self.b.block.kind is not None:
            block = self.b.new_block(f"bb{self.b.next_id()}", coord)
            self.b.branch(block, coord)
            self.b.seal(block)
            self.b.start(block)
        return self.b.block

    def lower_if(self, node: ast.If, rest_in_else: list | None = None, rest_in_then: list | None = None) -> None:
        coord = node.coord
        cond = self.to_bool(self.expr(node.cond), node.cond.coord)
        number = self.b.next_id()
        header = self.fresh_header(coord)
        then_block = self.b.new_block(f"if.then{number}", coord)
        has_else = node.otherwise is not None or rest_in_else is not None
        else_block = self.b.new_block(f"if.else{number}", coord) if has_else else None
        end = self.b.new_block(f"if.end{number}", coord)
        header.kind, header.merge = "if", end
        self.b.cond_branch(cond, then_block, else_block or end, coord)
        exits = []
        before = self.resource_state()  # which resource each local names (lower/resource_cells.py)
        states = [None, None if has_else else before]  # at the end of each arm that reaches it
        for side, (block, arm, rest) in enumerate(((then_block, node.then, rest_in_then),
                                                     (else_block, node.otherwise, rest_in_else))):
            if block is None:
                continue
            self.restore_resources(before)
            self.b.seal(block)
            self.b.start(block)
            if arm is not None:
                self.statements(_as_list(arm))
            if rest is not None:
                self.statements(rest)
            if self.b.block is not None:
                self.b.branch(end, coord)
                states[side] = self.resource_state()
            else:
                exits.append(self.last_jump)
        if self.is_const(cond):  # a constant condition: the taken arm decides
            states = [states[0] if cond.attrs["value"] else states[1]]
        self.merge_resources([state for state in states if state is not None] or [before], node.cond.coord)
        self.close_merge(end, exits, coord)

    def close_merge(self, merge: Block, exits: list, coord) -> None:
        """Continue at ``merge``; if no path reaches it, keep it as an unreachable block
        that jumps where the arms went, so the region still has its merge block."""
        self.b.seal(merge)
        self.b.start(merge)
        if not self.b.has_preds(merge):
            target = exits[0] if exits else None
            if target is None:
                raise Unsupported("a region no path leaves", coord)
            self.b.branch(target, coord)

    # ------------------------------------------------------------- loops
    def begin_loop(self, node, number: int):
        coord = node.coord
        if self.contains_return(node):
            self.b.write(self.frame.returned, self.const(T.BOOL, False, coord))
        header = self.b.new_block(f"loop.header{number}", coord)
        body = self.b.new_block(f"loop.body{number}", coord)
        cont = self.b.new_block(f"loop.cont{number}", coord)
        end = self.b.new_block(f"loop.end{number}", coord)
        header.kind, header.merge, header.cont = "loop", end, cont
        self.b.branch(header, coord)
        self.b.start(header)
        return header, body, cont, end

    def loop_body(self, node, body: Block, cont: Block, end: Block) -> None:
        self.b.seal(body)
        self.b.start(body)
        self.frame.breakables.append(Breakable("loop", end, cont))
        self.statements(_as_list(node.body))
        self.frame.breakables.pop()
        if self.b.block is not None:
            self.b.branch(cont, node.coord)
        self.b.seal(cont)
        self.b.start(cont)

    def end_loop(self, node, header: Block, end: Block) -> None:
        self.b.seal(header)
        self.b.seal(end)
        if not self.b.has_preds(end):
            raise Unsupported("a loop that never exits", node.coord)
        self.b.start(end)

    def stmt_For(self, node: ast.For) -> None:
        plan = self.unroller.plan(node, self.unrolled)
        if plan is not None:
            self.unroll(node, plan)
            return
        self.warn_not_unrolled(node)
        if node.init is not None:
            self.statement(node.init)
        self.while_loop(node, node.cond, node.step)

    def unroll(self, node: ast.For, plan) -> None:
        """The body once per iteration, the counter a constant in each (see lower/unroll.py)."""
        self.statement(node.init)
        counter = plan.counter
        place = Place(self.frame.vars[counter], self.root_type(counter, counter.coord))
        outer = self.unrolled
        for value in plan.values:
            self.unrolled = {**outer, counter: value}
            self.store(place, self.const(place.type, value, node.coord), node.coord)
            self.statements(_as_list(node.body))
        self.unrolled = outer
        self.store(place, self.const(place.type, plan.final, node.coord), node.coord)

    def warn_not_unrolled(self, node) -> None:
        reason = self.unroller.refusal(node, self.unrolled)
        if reason is not None and node not in self.warned_loops:
            self.warned_loops.add(node)
            self.diagnostics.warning(f"loop marked [unroll] is not unrolled: {reason}", node.coord, "pass-failed")

    def stmt_While(self, node: ast.While) -> None:
        self.warn_not_unrolled(node)
        self.while_loop(node, node.cond, None)

    def while_loop(self, node, cond_node, step) -> None:
        number = self.b.next_id()
        header, body, cont, end = self.begin_loop(node, number)
        if cond_node is not None:
            cond = self.to_bool(self.expr(cond_node), cond_node.coord)
            self.b.cond_branch(cond, body, end, node.coord)
        else:
            self.b.branch(body, node.coord)
        self.loop_body(node, body, cont, end)
        if step is not None and self.b.has_preds(cont):
            self.expr(step)
        self.b.branch(header, node.coord)
        self.end_loop(node, header, end)

    def stmt_DoWhile(self, node: ast.DoWhile) -> None:
        self.warn_not_unrolled(node)
        number = self.b.next_id()
        header, body, cont, end = self.begin_loop(node, number)
        self.b.branch(body, node.coord)
        self.loop_body(node, body, cont, end)
        if self.b.has_preds(cont):
            cond = self.to_bool(self.expr(node.cond), node.cond.coord)
            self.b.cond_branch(cond, header, end, node.coord)
        else:
            self.b.branch(header, node.coord)
        self.end_loop(node, header, end)

    # ------------------------------------------------------------ switch
    def stmt_Switch(self, node: ast.Switch) -> None:
        coord = node.coord
        selector = self.expr(node.expr)
        selector_type = selector.type if isinstance(selector.type, T.ScalarType) else T.INT
        selector = self.convert(selector, selector_type, coord)
        number = self.b.next_id()
        header = self.fresh_header(coord)
        end = self.b.new_block(f"switch.end{number}", coord)
        header.kind, header.merge = "switch", end
        groups: list[tuple[Block, list]] = []  # a block per run of labels, with its statements
        labels: list[tuple[int | None, Block]] = []
        pending: list[int | None] = []
        for index, case in enumerate(node.cases):
            value = None if case.value is None else self.case_value(case, selector_type)
            pending.append(value)
            if case.body or index == len(node.cases) - 1:
                first = pending[0]
                name = "default" if first is None else f"case{number}_{first if first >= 0 else 'n' + str(-first)}"
                block = self.b.new_block(f"switch.{name}{number if first is None else ''}", case.coord)
                labels.extend((label, block) for label in pending)
                groups.append((block, case.body))
                pending = []
        default = next((block for label, block in labels if label is None), end)
        cases = [(label, block) for label, block in labels if label is not None]
        self.b.switch(selector, default, cases, coord)
        self.frame.breakables.append(Breakable("switch", end))
        exits = []
        for position, (block, body) in enumerate(groups):
            if self.b.block is not None:
                self.b.branch(block, coord)  # fall through from the previous case
            self.b.seal(block)
            self.b.start(block)
            self.statements(body)
            if self.b.block is None:
                exits.append(self.last_jump)
        if self.b.block is not None:
            self.b.branch(end, coord)
        self.frame.breakables.pop()
        self.close_merge(end, exits, coord)

    def case_value(self, case: ast.Case, selector_type: T.ScalarType) -> int:
        value = self.constant_int(case.value)
        if value is None:
            raise Unsupported("a case label that is not an integer constant", case.coord)
        return wrap_integer(value, selector_type)

    # ------------------------------------------------------------- jumps
    def stmt_Break(self, node: ast.Break) -> None:
        target = self.frame.breakables[-1].merge
        self.last_jump = target
        self.b.branch(target, node.coord)

    def stmt_Continue(self, node: ast.Continue) -> None:
        loop = next(b for b in reversed(self.frame.breakables) if b.kind == "loop")
        self.last_jump = loop.cont
        self.b.branch(loop.cont, node.coord)

    def stmt_Return(self, node: ast.Return) -> None:
        frame = self.frame
        if node.value is not None and holds_resource(frame.func.type):
            self.return_resources(node.value)
        if node.value is not None and frame.result is not None:
            value = self.expr_as(node.value, frame.result.type, node.value.coord)
            self.b.write(frame.result, value)
        self.b.write(frame.returned, self.const(T.BOOL, True, node.coord))
        if frame.breakables:
            target = self.return_target().merge
            self.last_jump = target
            self.b.branch(target, node.coord)


def _as_list(node) -> list:
    """A statement as a statement list (a block's items, or the statement alone)."""
    return node.items if isinstance(node, ast.Compound) else [node]
