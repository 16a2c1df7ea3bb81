"""``shc.spd``: mip chains with the single pass downsampler (``shc.runtime.spd``).

    import shc
    mips = shc.spd.downsample(image)
"""

from .runtime.spd import *  # noqa: F401,F403 - the public API of shc.runtime.spd
from .runtime.spd import __all__  # noqa: F401
