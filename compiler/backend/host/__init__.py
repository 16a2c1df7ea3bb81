"""The host back end: a kernel's final IR as LLVM IR for this CPU, one wave per call.

Produces a ``HostKernel`` (``module.py``: the LLVM IR text and the resource slots)
and machine code for it (``jit.py``: llvmlite's MCJIT). The runtime
(``shc.runtime``) consumes both: its wave scheduler calls the compiled function per
wave through the frame contract in ``compiler/machine/abi.py``. Each lane's value is
an element of an LLVM vector; exec masks, lane exchange and structured control flow
are emitted as the IR interpreter (``ir/interpret/``) runs them, which is what the
tests compare this back end against.
"""
