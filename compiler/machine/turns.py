"""The scale between radians and the turns ``v_sin_f32``/``v_cos_f32`` take, without NumPy.

The RDNA2 selector multiplies an angle by ``INV_TWO_PI`` (an f32 value, held here as the
Python float equal to it) before ``v_sin_f32``; ``transcendentals.py`` and the host JIT make the
same multiply. The listing's path (``shc compile``) does not import NumPy, so neither does this.
"""

from __future__ import annotations

import math
import struct

INV_TWO_PI = struct.unpack("<f", struct.pack("<f", 1.0 / (2.0 * math.pi)))[0]  # f32(1 / 2pi)
TWO_PI = 2.0 * math.pi  # the double scale from turns back to radians
