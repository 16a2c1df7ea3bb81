"""The constant-buffer words AMD's FidelityFX CAS and FSR 1 shaders read, computed on the CPU.

Written from the setup arithmetic the headers describe (``CasSetup`` in ffx_cas.h, ``FsrEasuCon``
and ``FsrRcasCon`` in ffx_fsr1.h): every value is a float32 reinterpreted as a uint32 word, or
two float16 halves packed into one word (first value in the low 16 bits). Arithmetic is done
in float32, as the headers' A_CPU path does it.
"""

import numpy as np

F32 = np.float32


def word(value) -> np.uint32:
    """A float32 value's bits as a uint32."""
    return np.array([value], np.float32).view(np.uint32)[0]


def half_pair(low, high) -> np.uint32:
    """Two values as float16, packed into one uint32 (``low`` in bits 0..15)."""
    return np.array([low, high], np.float16).view(np.uint32)[0]


def words(*values) -> np.ndarray:
    return np.array(values, np.uint32)


def cas_setup(sharpness: float, in_w: int, in_h: int, out_w: int, out_h: int) -> dict:
    """``const0``, ``const1`` for CAS: output pixel to input pixel scale and offset (centres
    aligned), the negative-lobe peak ``-1 / lerp(8, 5, sharpness)`` as float32 and as a half pair
    (peak, 0) for the packed path, and 8 output pixels' width in input pixels."""
    scale_x, scale_y = F32(in_w) / F32(out_w), F32(in_h) / F32(out_h)
    sharpness = min(max(F32(sharpness), F32(0)), F32(1))
    peak = -F32(1) / (F32(8) + (F32(5) - F32(8)) * sharpness)
    const0 = words(word(scale_x), word(scale_y), word(F32(0.5) * scale_x - F32(0.5)),
                   word(F32(0.5) * scale_y - F32(0.5)))
    const1 = words(word(peak), half_pair(peak, 0.0), word(F32(8) * scale_x), 0)
    return {"const0": const0, "const1": const1}


def fsr_easu_con(in_w: int, in_h: int, out_w: int, out_h: int) -> dict:
    """``Const0..Const3`` for EASU with the whole input image as the viewport: output pixel to
    input pixel scale and offset, then the input texel size and the offsets, in texels, of the
    four gather centres around the 12-tap window (from the upper left of tap 'f', then from the
    first centre)."""
    rcp_w, rcp_h = F32(1) / F32(in_w), F32(1) / F32(in_h)
    scale_x, scale_y = F32(in_w) / F32(out_w), F32(in_h) / F32(out_h)
    return {
        "Const0": words(word(scale_x), word(scale_y), word(F32(0.5) * scale_x - F32(0.5)),
                        word(F32(0.5) * scale_y - F32(0.5))),
        "Const1": words(word(rcp_w), word(rcp_h), word(rcp_w), word(-rcp_h)),
        "Const2": words(word(-rcp_w), word(F32(2) * rcp_h), word(rcp_w), word(F32(2) * rcp_h)),
        "Const3": words(word(F32(0) * rcp_w), word(F32(4) * rcp_h), 0, 0),
    }


def fsr_rcas_con(stops: float) -> dict:
    """``Const0`` for RCAS: sharpness given in stops below the maximum (0 is the sharpest), as
    the linear factor ``2 ** -stops`` in float32 and as a half pair."""
    linear = F32(np.exp2(-F32(stops)))
    return {"Const0": words(word(linear), half_pair(linear, linear), 0, 0)}
