"""Reassociate groupshared addresses into one shared base plus a constant.

An LDS address is a sum of scaled terms and constants, and HLSL indexing nests them:
``tile[2 * y + 1][2 * x + 1]`` lowers to ``(2y + 1) * 64 + (2x + 1) * 4``, whose 68 hides
inside the products. This pass writes every LDS address (of ``lds_load``, ``lds_store``,
``lds_atomic``) as ``sum(term * scale) + constant``: the terms in one canonical order (the
order their values are defined in), each scale the product of the constant factors on the
way to it (``mul`` by a constant, ``shl`` by a constant), and the constant at the top, where
the RDNA2 selector folds it into the instruction's ``offset:`` field. Neighbouring accesses
then share one base, which common-subexpression elimination (run next) merges, and the
back end can pair them (``ds_read2_b32``).

Exact for 32-bit integers: multiplication distributes over addition modulo 2^32 and a
left shift by a constant is a multiplication. An address whose constant does not fit
``offset:`` (0 to 65535) is left as it is, and so is one with fewer than two terms and no
constant to gain.
"""

from __future__ import annotations

from . import Pass
from .constants import constant_of
from ..frontend import hlsl_types as T
from ..ir.core import Inst, Module
from ..ir.ops import Op

_ADDRESSED = frozenset({Op.LDS_LOAD, Op.LDS_STORE, Op.LDS_ATOMIC})
MAX_OFFSET = 65535
_WORD = 1 << 32


class Reassociate(Pass):
    name = "reassociate"
    description = "LDS addresses as one canonical base plus a constant offset"

    def run(self, module: Module) -> None:
        function = module.function
        order = {inst: index for index, inst in enumerate(function.instructions())}
        for block in function.blocks:
            for inst in list(block.insts):
                if inst.op in _ADDRESSED and inst.operands and _is_word(inst.operands[0]):
                    _rewrite(block, inst, order)


def _is_word(inst: Inst) -> bool:
    return isinstance(inst.type, T.ScalarType) and inst.type.bits == 32 and inst.type.kind in ("uint", "int")


def _constant(inst: Inst) -> int | None:
    constant = constant_of(inst)
    if constant is None or not constant.is_integer or len(constant.values) != 1:
        return None
    return int(constant.values[0]) % _WORD


def _decompose(value: Inst, scale: int, terms: dict, depth: int = 0) -> int:
    """Add ``value * scale``'s terms to ``terms`` (value -> scale); return its constant part."""
    constant = _constant(value)
    if constant is not None:
        return constant * scale % _WORD
    if depth < 16 and _is_word(value):
        if value.op is Op.ADD:
            return sum(_decompose(operand, scale, terms, depth + 1) for operand in value.operands) % _WORD
        factors = [_constant(operand) for operand in value.operands]
        if value.op is Op.MUL and factors[1] is not None:
            return _decompose(value.operands[0], scale * factors[1] % _WORD, terms, depth + 1)
        if value.op is Op.MUL and factors[0] is not None:
            return _decompose(value.operands[1], scale * factors[0] % _WORD, terms, depth + 1)
        if value.op is Op.SHL and factors[1] is not None and factors[1] < 32:
            return _decompose(value.operands[0], (scale << factors[1]) % _WORD, terms, depth + 1)
    terms[value] = (terms.get(value, 0) + scale) % _WORD
    return 0


def _rewrite(block, access: Inst, order: dict) -> None:
    address = access.operands[0]
    terms: dict[Inst, int] = {}
    offset = _decompose(address, 1, terms)
    terms = {value: scale for value, scale in terms.items() if scale}
    if offset > MAX_OFFSET or not terms or (offset == 0 and len(terms) < 2):
        return
    index = block.insts.index(access)
    word = address.type

    def emit(op: Op, operands: list, attrs=None) -> Inst:
        nonlocal index
        inst = Inst(op, operands, word, attrs, access.coord)
        block.insert(index, inst)
        index += 1
        return inst

    base = None
    for value in sorted(terms, key=lambda term: order.get(term, -1)):
        scale = terms[value]
        term = value if scale == 1 else emit(Op.MUL, [value, emit(Op.CONST, [], {"value": _signed(scale, word)})])
        base = term if base is None else emit(Op.ADD, [base, term])
    if offset:
        base = emit(Op.ADD, [base, emit(Op.CONST, [], {"value": _signed(offset, word)})])
    access.operands[0] = base


def _signed(value: int, word: T.ScalarType) -> int:
    """``value`` (mod 2^32) as a constant of ``word``: negative for an int with the top bit set."""
    return value - _WORD if word.kind == "int" and value >= _WORD // 2 else value
