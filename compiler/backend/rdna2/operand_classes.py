"""A structural check of a listing's text: every register sits in a field of its class.

Hardware facts it checks (RDNA2 ISA; an assembler rejects each of these otherwise):

- A scalar instruction (``s_*``, including the SMEM loads) names no VGPR: its fields are SGPRs,
  ``ttmp``, ``exec``, ``vcc``, ``m0``, ``scc`` or constants, and an SMEM load's destination is
  SGPRs.
- The resource (and sampler) of an image or buffer instruction, its ``soffset`` and the
  ``saddr`` of a scratch or global access are scalar; ``v_readlane_b32`` and
  ``v_readfirstlane_b32`` write an SGPR, and the value and lane select of a lane access, the
  result of a ``v_cmp``, the mask of ``v_cndmask_b32`` and the carries of ``v_add_co``-style
  instructions are scalar too.

- The address and data of a vector memory or image instruction, and every field of an LDS one,
  are VGPRs (``off`` where an address may be absent): SGPRs and constants are copied first.
- Vector memory moves at most four dwords per instruction (``scratch_store_dwordx8`` does not
  exist; SMEM loads go up to sixteen).

The check reads the printed text, not the machine IR, so it sees what an assembler would:
``operand_class_problems(text)`` returns one line per misplaced register, and
``render_listing`` refuses a listing that has any (a back-end bug, such as an SGPR value
spilled into a VGPR, reported as an internal compiler error rather than printed).
"""

from __future__ import annotations

import re

_VGPR = re.compile(r"^[-|]*v(\d+\b|\[\d+:\d+\])")
_SGPR_TUPLE = re.compile(r"^(s|ttmp)(\d+|\[\d+:\d+\])$")
_VECTOR_MEMORY = ("buffer_", "scratch_", "global_", "flat_")
_WIDTH = re.compile(r"_dwordx(\d+)$")


class OperandClassError(Exception):
    """A listing with a register in a field of the other class."""

    def __init__(self, problems: list[str]):
        super().__init__("the listing has registers in fields of the wrong class:\n  " + "\n  ".join(problems))
        self.problems = problems


def check_operand_classes(text: str) -> None:
    problems = operand_class_problems(text)
    if problems:
        raise OperandClassError(problems)


def operand_class_problems(text: str) -> list[str]:
    """``line N: <instruction>: <what is wrong>`` for each misplaced register in ``text``."""
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split(";", 1)[0].strip()
        if not code or code.endswith(":"):
            continue
        mnemonic, _, rest = code.partition(" ")
        for problem in _instruction_problems(mnemonic, _operands(rest)):
            problems.append(f"line {number}: {code}: {problem}")
    return problems


def _operands(rest: str) -> list[str]:
    """The comma-separated fields, a bracketed address list kept whole, modifiers dropped."""
    fields: list[str] = []
    current, depth = None, 0  # the field being read; brackets open before the next comma
    for part in rest.split(","):  # (split, then join across commas inside brackets: no loop per character)
        if current is not None and depth == 0:
            fields.append(current.strip())
            current = part
        else:
            current = part if current is None else current + "," + part
        depth += part.count("[") - part.count("]")
    if current.strip():
        fields.append(current.strip())
    if fields:  # ``v[107:114] dmask:0x1 dim:...``: the operand is the first word
        last = fields[-1]
        fields[-1] = last if last.startswith("[") else last.split()[0]
    return fields


def _is_vgpr(operand: str) -> bool:
    return bool(_VGPR.match(operand)) or operand.startswith("[v")


# mnemonic prefix -> the operand positions that must not be VGPRs (past the end: not checked)
_SCALAR_FIELDS = [
    ("image_sample", (2, 3)), ("image_gather4", (2, 3)), ("image_", (2,)),
    ("buffer_", (2, 3)), ("scratch_", (2,)), ("global_load", (2,)), ("global_store", (2,)),
    ("v_readlane_b32", (0, 2)), ("v_readfirstlane_b32", (0,)), ("v_writelane_b32", (1, 2)),
    ("v_cndmask_b32", (3,)), ("v_add_co_ci_", (1, 4)), ("v_sub_co_ci_", (1, 4)), ("v_subrev_co_ci_", (1, 4)),
    ("v_add_co_", (1,)), ("v_sub_co_", (1,)), ("v_subrev_co_", (1,)), ("v_cmp_", (0,)),
    ("v_mad_u64_u32", (1,)), ("v_mad_i64_i32", (1,)),
]


# mnemonic prefix -> how many leading operands (address and data) are VGPRs, None for all; ``off``
# stands for an absent address
_VECTOR_FIELDS = [("ds_", None), ("buffer_", 2), ("image_", 2), ("scratch_", 2), ("global_", 2)]


def _instruction_problems(mnemonic: str, operands: list[str]) -> list[str]:
    if mnemonic.startswith("s_"):
        found = [f"the scalar instruction names the VGPR {op}" for op in operands if _is_vgpr(op)]
        if mnemonic.startswith(("s_load_", "s_buffer_load_")) and operands and not _is_vgpr(operands[0]) \
                and not _SGPR_TUPLE.match(operands[0]):
            found.append(f"a scalar load writes {operands[0]}, not SGPRs")
        return found
    width = _WIDTH.search(mnemonic)
    if mnemonic.startswith(_VECTOR_MEMORY) and width and int(width.group(1)) > 4:
        return [f"no vector memory instruction moves {width.group(1)} dwords"]
    count = next((count for prefix, count in _VECTOR_FIELDS if mnemonic.startswith(prefix)), 0)
    found = [f"operand {index + 1} ({operand}) must be a VGPR" for index, operand in enumerate(operands[:count])
             if not _is_vgpr(operand) and operand != "off"]
    for prefix, fields in _SCALAR_FIELDS:
        if mnemonic.startswith(prefix):
            return found + [f"operand {index + 1} ({operands[index]}) must be scalar, not a VGPR"
                            for index in fields if index < len(operands) and _is_vgpr(operands[index])]
    return found
