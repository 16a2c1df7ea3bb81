"""Buffer indices the host JIT knows to be in lane order, so their accesses skip the lane test.

``contiguous.py`` tests at run time that lane ``i``'s byte offset is lane 0's plus ``i``
elements before it takes its one-vector fast path: a few dozen AVX2 instructions per access
(the lanes' offsets built, compared and reduced), a fifth of a row of ``scan.hlsl``. An index
built as below is in lane order by construction, in every lane of the JIT's vector, on or off:
lane ``i`` holds lane 0's value plus ``i``, modulo 2^32 like the JIT's arithmetic.

* the lane index: ``mbcnt`` of a constant mask holding every lane of the wave, plus a uniform
  addend (``WaveGetLaneIndex()`` lowers to it);
* ``SV_GroupIndex``: the JIT's lanes are threads in group-index order (``thread_input``);
* the x component of ``SV_GroupThreadID`` and ``SV_DispatchThreadID`` when ``numthreads.x`` is a
  multiple of the wave size: a wave then lies in one row of the group;
* ``a + u``, ``u + a`` and ``a - u``, for such an ``a`` and a ``u`` the JIT holds as one scalar
  (a constant, or uniform: ``divergence.py``).

Not taken: a value merged into its home lane by lane (a loop value used after the loop: its
off lanes keep older iterations' values), a DPP-combined op (its unwritten lanes keep the old
value), 16- and 64-bit integers. With the order known, the caller's overflow guard of lanes 0
and ``W - 1`` covers the wave: an index that wraps past 2^32 inside the wave starts above
``2^32 - W``, beyond any guard's limit, so lane 0 fails it.
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from ...ir.core import Inst
from ...ir.ops import Op
from .llvm_text import is_vector

WORDS = (T.UINT, T.INT)
LANE_ORDERED_INPUTS = ("group_thread_id", "dispatch_thread_id")  # their x component
MAX_DEPTH = 8  # adds and subtracts looked through


def in_lane_order(em, inst: Inst, depth: int = 0) -> bool:
    """Whether lane ``i`` of ``inst`` is lane 0's value plus ``i`` in every lane (see above)."""
    if depth > MAX_DEPTH or inst.type not in WORDS or "dpp" in inst.attrs or inst in em.plan.persistent:
        return False
    if inst.op is Op.MBCNT:
        mask, addend = inst.operands
        every_lane = (1 << em.wave_size) - 1
        return mask.op is Op.CONST and int(mask.attrs["value"]) & every_lane == every_lane and _scalar(em, addend)
    if inst.op is Op.THREAD_INPUT:
        return _ordered_input(em, inst, int(inst.attrs.get("component", 0)))
    if inst.op is Op.EXTRACT:
        source = inst.operands[0]
        return source.op is Op.THREAD_INPUT and \
            _ordered_input(em, source, int(source.attrs.get("component", 0)) + int(inst.attrs["index"]))
    if inst.op is Op.ADD:
        left, right = inst.operands
        return (in_lane_order(em, left, depth + 1) and _scalar(em, right)) or \
            (_scalar(em, left) and in_lane_order(em, right, depth + 1))
    if inst.op is Op.SUB:
        left, right = inst.operands
        return in_lane_order(em, left, depth + 1) and _scalar(em, right)
    return False


def _ordered_input(em, inst: Inst, component: int) -> bool:
    which = inst.attrs.get("which")
    if which == "group_index":
        return True
    return which in LANE_ORDERED_INPUTS and component == 0 and em.function.numthreads[0] % em.wave_size == 0


def _scalar(em, inst: Inst) -> bool:
    """Whether the JIT holds ``inst`` as one 32-bit scalar for the whole wave."""
    if inst.type not in WORDS:
        return False
    if inst.op is Op.CONST:
        return True
    value = em.cache.get(inst)  # uniform values are scalars; a lane vector here is not taken
    return em.is_uniform(inst) and (value is None or not is_vector(value.parts[0].ty))
