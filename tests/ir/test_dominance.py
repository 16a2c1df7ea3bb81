"""Dominator and post-dominator trees (Cooper–Harvey–Kennedy) and control dependence,
on small CFGs whose answers are worked out by hand."""

from textwrap import dedent

from shc.compiler.ir.dominance import control_dependences, dominators, postdominators
from shc.compiler.ir.reader import read_module

DIAMOND = """
    func @main numthreads(1, 1, 1) wave32 {
    ^entry:
      %0 = thread_input uint {which="group_index"}
      %1 = eq bool %0, %0
      cond_br %1, ^then, ^else
    ^then:
      br ^end
    ^else:
      br ^end
    ^end:
      ret
    }
"""

# entry -> head; head -> body | exit; body -> cont; cont -> head (the back edge)
LOOP = """
    func @main numthreads(1, 1, 1) wave32 {
    ^entry:
      %0 = thread_input uint {which="group_index"}
      br ^head
    ^head:
      %1 = eq bool %0, %0
      cond_br %1, ^body, ^exit
    ^body:
      cond_br %1, ^cont, ^exit
    ^cont:
      br ^head
    ^exit:
      ret
    }
"""


def blocks(text: str):
    function = read_module(dedent(text)).function
    return function, {block.name: block for block in function.blocks}


def names(tree):
    return {block.name: (None if parent is None else parent.name) for block, parent in tree.idom.items()}


def test_diamond_idoms_and_post_idoms():
    function, b = blocks(DIAMOND)
    assert names(dominators(function)) == {"entry": None, "then": "entry", "else": "entry", "end": "entry"}
    assert names(postdominators(function)) == {"end": None, "then": "end", "else": "end", "entry": "end"}


def test_diamond_queries_and_control_dependence():
    function, b = blocks(DIAMOND)
    dom = dominators(function)
    assert dom.dominates(b["entry"], b["end"]) and dom.dominates(b["end"], b["end"])
    assert not dom.dominates(b["then"], b["end"]) and not dom.strictly_dominates(b["end"], b["end"])
    post = postdominators(function)
    assert post.dominates(b["end"], b["entry"]) and not post.dominates(b["then"], b["entry"])
    depends = control_dependences(function)
    assert {block.name: {h.name for h in heads} for block, heads in depends.items()} == {
        "entry": set(), "then": {"entry"}, "else": {"entry"}, "end": set()}


def test_loop_idoms_and_post_idoms():
    function, b = blocks(LOOP)
    assert names(dominators(function)) == {
        "entry": None, "head": "entry", "body": "head", "cont": "body", "exit": "head"}
    # every path from head, body and cont reaches exit; cont always goes back to head
    assert names(postdominators(function)) == {
        "exit": None, "head": "exit", "body": "exit", "cont": "head", "entry": "head"}
    dom = dominators(function)
    assert dom.dominates(b["head"], b["cont"]) and not dom.dominates(b["cont"], b["head"])


def test_loop_control_dependence():
    function, b = blocks(LOOP)
    depends = {block.name: {h.name for h in heads} for block, heads in control_dependences(function).items()}
    # body runs when head says so; cont, and head again, when body continues
    # (body itself does not post-dominate cont: cont -> head -> exit avoids it)
    assert depends == {"entry": set(), "head": {"body"}, "body": {"head"}, "cont": {"body"},
                       "exit": set()}


def test_unreachable_blocks_are_outside_the_trees():
    function, b = blocks(DIAMOND.replace("^end:\n      ret", "^end:\n      ret\n    ^dead:\n      br ^end"))
    assert b["dead"] not in dominators(function)
    assert not dominators(function).dominates(b["dead"], b["end"])
