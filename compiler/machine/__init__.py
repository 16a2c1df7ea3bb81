"""The machine description: what the rest of shc knows about RDNA2 and the host ABI.

The bottom layer. Nothing here imports any other part of shc, and every other
layer may import it:

- ``rdna2.py``: gfx1030's limits, allocation granules and the occupancy formula
  (VGPRs, LDS, wave slots), as LLVM's AMDGPU backend computes them.
- ``lanes.py``, ``exchange.py``: what each lane-exchange primitive (DPP16, DPP8,
  permlanes, ``ds_swizzle``/``ds_bpermute``, readlane/writelane, mbcnt, ballots)
  does, lane by lane, in NumPy.
- ``wavemodel.py``: what each HLSL wave intrinsic means on a wave of lanes under an
  exec mask (the lane model, the reference every executor is tested against), and
  ``ladders.py``: the RDNA2 compositions of the intrinsics out of the primitives.
- ``transcendentals.py``: what ``exp2``, ``log2``, ``sin``, ``cos`` and ``rsqrt`` (the
  hardware's approximate instructions) compute, the one definition every executor follows;
  ``turns.py``: the radians-to-turns scale the listing multiplies by (no NumPy).
- ``texels.py``: texture formats (their gfx10 numbers) and how texels convert to the 32-bit
  channels shaders see and back, for the runtime and the listing simulator alike;
  ``sampling.py``: SampleLevel's filter in float32, step for step as the host JIT emits it.
- ``abi.py``: the frame and context contract between the host JIT's code and the
  runtime's wave scheduler.
"""
