"""Translation validation for the conformance corpus: the RDNA2 listing of a case, run by the
listing simulator on the whole dispatch (every wave, barriers, ``s_waitcnt`` checked), must
leave every bound buffer bit for bit as the host JIT left it.

``listing_problem(case, kernel, bound, outputs, wave)`` reuses the kernel the runner compiled
(its IR module; only the RDNA2 back end runs again) and returns None or the first difference
with the listing instruction that wrote it and its HLSL line. A case whose listing cannot be
compared (what the simulator does not model) is named in
``NOT_ON_THE_LISTING`` with the reason, a case whose listing is wrong in ``LISTING_BUGS``; such a
case must still fail the check (a refusal, a ``SimulationError`` or a difference), so its entry
goes once it agrees.
"""

from __future__ import annotations

import numpy as np
from shc.compiler.backend.rdna2.listing import render_listing
from shc.compiler.backend.rdna2.operand_classes import OperandClassError
from shc.compiler.backend.rdna2.simulate import SimulationError
from shc.compiler.backend.rdna2.simulate_group import simulate_dispatch
from shc.compiler.diagnostics import CompileError, SourceCache
from shc.runtime.layout import pack_cbuffer

# why the listing is not compared: the back end cannot say what the kernel computes bit for bit,
# or the simulator cannot run it. Each case must still disagree or be refused.
NOT_ON_THE_LISTING: dict[str, str] = {
}

# the listing computes something else than the JIT: bugs of the RDNA2 back end, found by this check
LISTING_BUGS: dict[str, str] = {
}


def listing_problem(case, kernel, bound: dict, outputs: dict, wave: int) -> str | None:
    """None when the listing computes what the JIT computed; else what differs, and where."""
    sources = SourceCache()
    try:
        listing = render_listing(kernel.module, sources=sources)
    except CompileError as refusal:
        return f"the RDNA2 back end refuses the case at wave{wave}:\n{refusal}"
    except OperandClassError as invalid:
        return f"the RDNA2 back end makes a listing no assembler takes at wave{wave}: {invalid}"
    buffers = {}
    for name, buffer in case.buffers.items():
        if name in outputs and name in kernel.bindings.names():
            buffers[name] = np.frombuffer(buffer.values.tobytes(), np.uint8).copy()
    for name, texture in case.textures.items():
        buffers[name] = texture.texels.copy()
    for name in case.samplers:
        buffers[name] = bound[name]
    cbuffers = {layout.name: pack_cbuffer(layout, bound) for layout in kernel.info.cbuffers.values()}
    try:
        state = simulate_dispatch(listing.function, kernel.module, case.groups, buffers, cbuffers, sources,
                                  listing.lds_bytes)
    except SimulationError as failure:
        return f"the listing simulator stops at wave{wave}: {failure}"
    problems = []
    for name in buffers:
        if name in case.buffers:
            problem = state.difference(name, outputs[name](), case.buffers[name].dtype)
            if problem:
                problems.append(f"wave{wave}: the listing and the host JIT disagree: {problem}")
    return "\n".join(problems) or None
