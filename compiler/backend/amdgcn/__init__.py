"""The LLVM AMDGPU cross-check: the final IR as LLVM IR for ``amdgcn-amd-amdhsa`` (gfx1030).

``module.py`` writes the LLVM IR (``shc compile --emit llvm``); ``check.py`` compiles
it with the AMDGPU backend of the LLVM that llvmlite ships, in a child process, and
reads back LLVM's VGPRs, SGPRs, occupancy and ISA (``--emit amdgcn``). Consumed by
the register report (``compiler/report.py``), which prints LLVM's figures beside
shc's own.
"""
