"""Translation validation for the conformance corpus: the RDNA2 listing of a case, run by the
listing simulator on the whole dispatch (every wave, barriers, ``s_waitcnt`` checked), must
leave every bound buffer bit for bit as the host JIT left it.

``listing_problem(case, kernel, bound, outputs, wave)`` reuses the kernel the runner compiled
(its IR module; only the RDNA2 back end runs again) and returns None or the first difference
with the listing instruction that wrote it and its HLSL line. A case whose listing cannot be
compared (approximate hardware instructions, what the simulator does not model) is named in
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

_APPROXIMATE = ("v_exp_f32, v_log_f32, v_sin_f32, v_cos_f32 and v_rsq_f32 are the hardware's approximations "
                "(about 1 ulp), which the simulator does not model; the host JIT calls correctly rounded functions")
_ATAN = ("atan/asin/acos: the listing's degree-9 polynomial is good to about 1e-5, the case asks for 1e-6 "
         "(a real accuracy gap of the RDNA2 selector, isel_math._atan_core)")
_SAMPLE = "image_sample_lz: filtered sampling is run by the host JIT only (the simulator refuses it)"
_DIMENSIONS = ("GetDimensions reads the stride and size out of the buffer descriptor (s_bfe_u32), which the "
               "simulator's descriptors do not hold (they name the binding)")
_TEXELS = ("the simulator models float textures of four channels only (an integer, UNORM or one-channel "
           "texture stops it)")
_TYPED = "buffer_load_format_xyzw: typed-buffer formats are not modelled by the simulator"

# why the listing is not compared: the back end cannot say what the kernel computes bit for bit,
# or the simulator cannot run it. Each case must still disagree or be refused.
NOT_ON_THE_LISTING: dict[str, str] = {
    **{f"intrinsics/{name}.hlsl": _APPROXIMATE for name in (
        "cos", "cosh", "exp", "exp2", "exp2_specials", "log", "log10", "log2", "log_specials", "normalize_vec",
        "pow", "rsqrt_specials", "rsqrt_values", "sin", "sincos_out", "sinh", "tan", "tanh")},
    "numerics/f32_denorm_exp2_result.hlsl": _APPROXIMATE,
    "numerics/f32_denorm_log.hlsl": _APPROXIMATE,
    **{f"intrinsics/{name}.hlsl": _ATAN for name in ("atan", "atan2", "asin", "acos")},
    **{f"textures/samplelevel_{name}.hlsl": _SAMPLE for name in ("linear", "point", "wrap")},
    **{f"textures/{name}.hlsl": _TEXELS for name in ("uint_texture_load", "unorm8_texture")},
    "resources/texture_mips_index.hlsl": _TEXELS,
    "memory/typed_buffer.hlsl": _TYPED,
    "memory/getdimensions_buffers.hlsl": _DIMENSIONS,
    "resources/getdimensions_append_consume.hlsl": _DIMENSIONS,
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
