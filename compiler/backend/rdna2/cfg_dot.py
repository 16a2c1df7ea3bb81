"""The listing's control-flow graph as Graphviz DOT (``shc compile --target rdna2 --cfg FILE.dot``).

One node per machine block, named ``bb0``, ``bb1``, ... in listing order and labelled with
the block's label as the listing prints it (``.LBB0_2`` for a branch target, ``%bb.1``
otherwise, with the IR block it came from) and its instructions, left-aligned. Edges, the
same ones ``live_ranges.successors`` gives the allocator:

- ``s_branch``: solid, labelled ``branch``;
- ``s_cbranch_<cond>``: solid, labelled with the condition (``execz``, ``execnz``, ``scc1``);
- fall-through into the next block (unless the block ends in ``s_branch`` or
  ``s_endpgm``): dashed, labelled ``fall-through``.
"""

from __future__ import annotations

from .live_ranges import successors
from .machine import Label, MBlock, MFunction


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def block_title(function: MFunction, number: int) -> str:
    """How the listing names block ``number``: its label when something branches there, else ``%bb.N``."""
    block = function.blocks[number]
    targets = getattr(function, "targets", set())
    title = block.label if block.label in targets else f"%bb.{number}"
    return f"{title}:  ; {block.comment}" if block.comment else f"{title}:"


def branch_edges(block: MBlock) -> list[tuple[str, str]]:
    """(target label, condition) for each branch in ``block``: ``branch`` for ``s_branch``."""
    edges = []
    for inst in block.insts:
        if inst.mnemonic == "s_branch" or inst.mnemonic.startswith("s_cbranch_"):
            condition = "branch" if inst.mnemonic == "s_branch" else inst.mnemonic[len("s_cbranch_"):]
            edges += [(op.name, condition) for op in inst.uses if isinstance(op, Label)]
    return edges


def cfg_dot(function: MFunction) -> str:
    """The DOT text of ``function``'s blocks and edges."""
    number_of = {id(block): number for number, block in enumerate(function.blocks)}
    by_label = {block.label: number for number, block in enumerate(function.blocks)}
    lines = [f'digraph "{_quote(function.name)}" {{',
             '  node [shape=box, fontname="monospace", fontsize=10];',
             '  edge [fontname="monospace", fontsize=9];']
    for number, block in enumerate(function.blocks):
        text = [block_title(function, number)]
        text += ["  " + inst.format() for inst in block.insts if not inst.is_marker]
        label = "".join(_quote(line) + "\\l" for line in text)
        lines.append(f'  bb{number} [label="{label}"];')
    for block, targets in successors(function).items():
        number = number_of[id(block)]
        branches = branch_edges(block)
        explicit = {by_label[label] for label, _ in branches if label in by_label}
        for label, condition in branches:
            if label in by_label:
                lines.append(f'  bb{number} -> bb{by_label[label]} [label="{_quote(condition)}"];')
        for target in targets:
            target_number = number_of[id(target)]
            if target_number == number + 1 and (target_number not in explicit or _falls_through(block)):
                lines.append(f'  bb{number} -> bb{target_number} [label="fall-through", style=dashed];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _falls_through(block: MBlock) -> bool:
    last = block.insts[-1] if block.insts else None
    return last is None or last.mnemonic not in ("s_branch", "s_endpgm")
