"""Back ends: the final IR turned into something that runs or is read.

- ``host/``: LLVM IR for this machine (one wave per call), JIT-compiled by llvmlite;
  the runtime runs it on NumPy data. This is the product that executes kernels.
- ``rdna2/``: instruction selection, register allocation and the RDNA2 ISA listing
  that ``shc compile --target rdna2`` prints and ``shc regs`` measures; its simulator
  runs the listing as a test oracle.
- ``amdgcn/``: the same IR as LLVM IR for LLVM's own AMDGPU backend (gfx1030),
  compiled in a child process: the register report's cross-check.
- ``llvm_types.py``: the LLVM spelling of HLSL scalars, shared by ``host`` and ``amdgcn``.
"""
