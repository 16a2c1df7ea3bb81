"""Full unrolling of counted ``for`` loops: decided before lowering, done while lowering.

Unrolling happens on the AST. The loop's counter becomes a compile-time constant: the
body is lowered once per iteration with the counter bound to that iteration's value,
so ``taps[k]`` has a constant index and the array stays in SSA values (``insert`` /
``extract`` with constant indexes) instead of scratch memory, and ``kWeights[k]``
of a ``static const`` table folds to a constant. ``ProgramScan`` walks an unrolled
body the same way, once per counter value, so its scratch decision sees the same
constant indexes (``constant_int(index, env)`` with the counters of the unrolled
loops around it in ``env``).

The rule: a ``for`` loop is unrolled when

- its init declares one integer counter with a constant initial value; its condition
  is a constant expression of the counter (literals, ``const`` variables and the
  counters of enclosing unrolled loops may take part); its step only changes the
  counter (``++k``, ``k--``, ``k += 2``, ``k <<= 1``, ``k = k * 3 + 1``);
- the body never writes the counter, never returns, and has no ``break`` or
  ``continue`` of this loop (those stay loops);
- the attribute asks for it:

  ========================  ==============================================================
  ``[unroll]``              up to ``MAX_TRIPS`` iterations
  ``[unroll(n)]``           up to ``min(n, MAX_TRIPS)`` iterations (more: left a loop,
                            shc does not unroll partially)
  no attribute              up to ``IMPLICIT_TRIPS`` iterations, and only when the body
                            indexes a local or static array (or a matrix) with an index
                            that depends on the counter: what would otherwise send the
                            array to scratch memory. DXC gets the same effect from LLVM's
                            full unroller, which unrolls such small loops so SROA can
                            promote the array to registers.
  ``[loop]``, ``[fastopt]``  never
  ========================  ==============================================================

- and the unrolled code stays small: the iterations times the AST nodes of the body
  (nested unrolled loops counted unrolled, inlined calls once) at most ``MAX_NODES``
  (``IMPLICIT_MAX_NODES`` without an attribute).

A loop marked ``[unroll]`` that is not unrolled gets a warning saying why.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...frontend import ast
from ...frontend import hlsl_types as T
from ...frontend.expressions import ExpressionChecker
from .constants import constant_int, integer_op, wrap_constant
from .loop_facts import LoopFacts

MAX_TRIPS = 256
MAX_NODES = 16384
IMPLICIT_TRIPS = 32
IMPLICIT_MAX_NODES = 2048
NEVER = ("loop", "fastopt")


@dataclass(frozen=True)
class Unrolling:
    counter: ast.VarDecl
    values: tuple[int, ...]  # the counter in each iteration
    final: int  # the counter after the loop (visible to code after it in legacy scoping)
    size: int  # AST nodes of the unrolled body


def unroll_attribute(node) -> ast.Attribute | None:
    for attribute in getattr(node, "attributes", []):
        if attribute.name.lower() in ("unroll",) + NEVER:
            return attribute
    return None


class Unroller:
    """``plan(loop, env)``: how a ``for`` loop unrolls with the enclosing counters in ``env``."""

    def __init__(self) -> None:
        self.decisions: dict[tuple, Unrolling | str] = {}
        self.facts: dict[int, LoopFacts] = {}  # id(loop) -> the walk that covers it

    def facts_of(self, loop) -> LoopFacts:
        """The facts about ``loop``'s body, from one walk of the outermost loop asked about
        (inner loops are decided after, and inside, the loops around them)."""
        facts = self.facts.get(id(loop))
        if facts is None:
            facts = LoopFacts(loop)
            for inner in facts.loops:
                self.facts.setdefault(id(inner), facts)
        return facts

    def plan(self, node, env: dict) -> Unrolling | None:
        decision = self.decide(node, env)
        return decision if isinstance(decision, Unrolling) else None

    def refusal(self, node, env: dict) -> str | None:
        """Why an explicitly ``[unroll]``-ed loop is left a loop (None if it unrolls or isn't marked)."""
        attribute = unroll_attribute(node)
        if attribute is None or attribute.name.lower() != "unroll":
            return None
        decision = self.decide(node, env)
        return decision if isinstance(decision, str) else None

    def decide(self, node, env: dict) -> Unrolling | str:
        key = (node, tuple(sorted((id(decl), value) for decl, value in env.items())))
        if key not in self.decisions:
            self.decisions[key] = self._decide(node, env)
        return self.decisions[key]

    # ------------------------------------------------------------ the rule
    def _decide(self, node, env: dict) -> Unrolling | str:
        if not isinstance(node, ast.For):
            return "shc unrolls only counted for loops"
        attribute = unroll_attribute(node)
        name = attribute.name.lower() if attribute is not None else None
        if name in NEVER:
            return f"marked [{name}]"
        counter = _counter(node)
        if counter is None:
            return "the loop does not declare one integer counter in its init"
        facts = self.facts_of(node)
        if facts.leaves_early(node):
            return "the body returns, or breaks or continues the loop"
        if facts.writes_in(node.body, counter):
            return "the body writes the counter"
        if name is None:
            if not facts.indexes_arrays_with(node.body, counter):
                return "no attribute, and the body indexes no local array with the counter"
            trips, nodes = IMPLICIT_TRIPS, IMPLICIT_MAX_NODES
        else:
            trips, nodes = MAX_TRIPS, MAX_NODES
            if attribute.args:
                limit = constant_int(attribute.args[0], env)
                if limit is None or limit < 0:
                    return "the unroll count is not a constant"
                trips = min(trips, limit)
        values = self._trips(node, counter, env, trips)
        if isinstance(values, str):
            return values
        inner = dict(env)
        size = 0
        for value in values[:-1]:
            inner[counter] = value
            size += self.size(node.body, inner)
            if size > nodes:
                return f"the unrolled body would have more than {nodes} AST nodes"
        return Unrolling(counter, tuple(values[:-1]), values[-1], size)

    def _trips(self, node: ast.For, counter: ast.VarDecl, env: dict, limit: int) -> list[int] | str:
        """The counter's values in each iteration, then its value after the loop."""
        value = constant_int(counter.init, env)
        if value is None:
            return "the counter does not start at a constant"
        value = wrap_constant(value, counter.type)
        inner = dict(env)
        values: list[int] = []
        while True:
            inner[counter] = value
            cond = constant_int(node.cond, inner) if node.cond is not None else None
            if cond is None:
                return "the condition is not a constant expression of the counter"
            if not cond:
                return values + [value]
            if len(values) == limit:
                return f"more than {limit} iterations"
            values.append(value)
            value = _step(node.step, counter, inner)
            if value is None:
                return "the step is not a constant update of the counter"

    def size(self, node, env: dict) -> int:
        """AST nodes of ``node``, with the loops inside it that unroll counted unrolled."""
        if isinstance(node, ast.For):
            decision = self.decide(node, env)
            if isinstance(decision, Unrolling):
                return decision.size
        return 1 + sum(self.size(child, env) for child in node.children())


# --------------------------------------------------------------------- pieces
def _counter(node: ast.For) -> ast.VarDecl | None:
    init = node.init
    if not isinstance(init, ast.DeclStmt) or len(init.decls) != 1:
        return None
    decl = init.decls[0]
    if not isinstance(decl, ast.VarDecl) or decl.storage != "local" or decl.init is None \
            or isinstance(decl.init, ast.InitList):
        return None
    t = decl.type
    if isinstance(t, T.VectorType) and t.size == 1:
        t = t.element
    if not isinstance(t, T.ScalarType) or not t.is_integer:
        return None
    return decl


def _step(step, counter: ast.VarDecl, env: dict) -> int | None:
    """The counter after ``step`` runs with the values in ``env``."""
    old = env[counter]
    if step is None:
        return old
    if isinstance(step, ast.Unary) and step.op in ("++", "--") and _names(step.operand, counter):
        return wrap_constant(old + (1 if step.op == "++" else -1), counter.type)
    if isinstance(step, ast.Assign) and _names(step.target, counter):
        value = constant_int(step.value, env)
        if value is None:
            return None
        if step.op == "=":
            return wrap_constant(value, counter.type)
        element = ExpressionChecker.operand_element(None, step.target, step.target.type, step.value, step.value.type)
        left, right = wrap_constant(old, element), wrap_constant(value, element)
        if left is None or right is None:
            return None
        result = integer_op(step.op[:-1], left, right, element)
        return None if result is None else wrap_constant(result, counter.type)
    return None


def _names(expr, decl) -> bool:
    return isinstance(expr, ast.Identifier) and expr.decl is decl
