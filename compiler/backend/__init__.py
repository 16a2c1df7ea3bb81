"""Back ends: the RDNA2 listing (rdna2/), the LLVM AMDGPU cross-check, the host JIT."""
