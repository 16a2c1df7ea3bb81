"""The reference interpreter: a slow, obvious NumPy executor of the IR, one wave at a time.

``run.run_wave`` is the IR's executable semantics. It is the reference the other
executors are tested against: the host JIT (``backend/host/``) must compute what it
computes, the listing simulator (``backend/rdna2/simulate.py``) must compute it
from the printed instructions, and its wave intrinsics call the lane model
(``compiler/machine/wavemodel.py``).
"""
