"""``shc.spd``: mip chains with the single pass downsampler (``shc.runtime.spd``).

    from shc.spd import downsample, spd_setup
    mips = downsample(image)
"""

from .runtime.spd import (MAX_MIPS, POOL_LIMIT, SAMPLE, TILE, Downsampler, SpdResult, SpdSetup, compiled_kernel,
                          defines_for, downsample, full_chain, mip_shape, reference_mips, release_storage, spd_setup)

__all__ = ["Downsampler", "SpdResult", "SpdSetup", "compiled_kernel", "defines_for", "downsample", "full_chain",
           "mip_shape", "reference_mips", "release_storage", "spd_setup", "MAX_MIPS", "POOL_LIMIT", "SAMPLE", "TILE"]
