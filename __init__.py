"""shc: a compiler for the HLSL compute subset that real shaders use.

The repository root is this package: ``shc.compiler`` is the compiler (front end,
IR, passes, back ends), ``shc.runtime`` runs kernels on a modeled RDNA2 device.
"""

__version__ = "0.1.0"
