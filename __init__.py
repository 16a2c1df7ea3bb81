"""shc: a compiler for the HLSL compute subset that real shaders use.

The repository root is this package: ``shc.compiler`` is the compiler (front end,
IR, passes, back ends), ``shc.runtime`` runs kernels on a modeled RDNA2 device.
"""

__version__ = "0.1.0"

# The Python API, imported on first use so that ``import shc`` (and ``shc --help``) stays fast.
_RUNTIME_EXPORTS = {
    "compile": "kernel", "compile_file": "kernel", "Kernel": "kernel", "Sampler": "resources",
    "KernelCompileError": "kernel", "BindingError": "kernel",
    "DispatchError": "dispatch", "DispatchTimeout": "dispatch",
}


def __getattr__(name: str):
    from importlib import import_module

    if name == "spd":  # shc.spd.downsample(...): the SPD helpers, a submodule
        return import_module("shc.spd")
    module = _RUNTIME_EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'shc' has no attribute {name!r}")
    value = getattr(import_module(f"shc.runtime.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(_RUNTIME_EXPORTS) + ["spd"])
