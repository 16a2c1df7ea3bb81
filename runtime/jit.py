"""The LLVM side of the runtime: host code generation, loading the code, the disk cache.

    obj = compile_object(llvm_ir, "shc_wave")   # kernel + scheduler, optimised, as an object file
    code = LoadedCode(obj, "shc_wave")          # the object in memory; code.run_groups(...)

``compile_object`` links the code generator's module with the native group
scheduler (``driver.py``), verifies it, optimises it with LLVM's new pass
manager at O2 for the host CPU and emits an object file. ``LoadedCode`` places
such an object in memory with ``object_loader.py`` (on Linux x86-64; anything that
loader does not take goes into its own MCJIT engine, ``ExecutionEngine.add_object_file``),
so a kernel taken from the disk cache never runs LLVM's code generator, and on Linux
the process never loads LLVM at all: the cache key describes the host without it
(``host_description``).

The disk cache (``KernelCache``) follows numba's: an index file per *source key*
(the source text and name, entry, defines, include directories, wave size, shc
and LLVM versions, host CPU) lists the compiled variants, each with the files
the preprocessor read (path and content hash) and the names of its object and
metadata files. A lookup re-hashes those files, so editing an included header
is a miss. Every write goes to a temporary file first and is published with
``os.replace``, so a reader never sees half a file and concurrent writers only
race to write the same thing. ``CACHE_COUNTERS`` counts hits, misses and code
generations for tests.

The cache holds data, never code: the index and the metadata are JSON (the
kernel description as ``KernelInfo.to_dict`` writes it), the object is raw bytes
whose sha256 the metadata records. A lookup checks that hash before LLVM ever
sees the object (a truncated or damaged object would crash the process inside
LLVM's loader), and anything missing, malformed or mismatched is a miss that
compiles again and rewrites the entry. The directories and files follow the
rules of ``compiler/frontend/tables.py`` (0700 and 0600, ignored with a warning
when another user owns them or others can write them).
"""

from __future__ import annotations

import ctypes
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..compiler.cache_files import (cache_dir, code_fingerprint, package_stamp, private_directory, read_private,
                                    write_private)
from ..compiler.diagnostics import source_unchanged
from ..compiler.digests import sha256
from .driver import ENTRY as DRIVER_ENTRY
from .driver import driver_ir
from .object_loader import load_object

CACHE_FORMAT = 2  # bump when what the cache stores changes shape

_LOCK = threading.RLock()
_STATE: dict[str, Any] = {}

# What tests read: cache hits and misses, and how often LLVM generated code.
CACHE_COUNTERS = {"hits": 0, "misses": 0, "stores": 0, "codegen": 0}


class JitError(RuntimeError):
    """LLVM rejected the host module (a code generator bug, not a user error)."""


# ---------------------------------------------------------------------------------------
# LLVM
# ---------------------------------------------------------------------------------------


def _llvm():
    """llvmlite's binding layer, with the native target initialised once."""
    with _LOCK:
        if "llvm" not in _STATE:
            import llvmlite.binding as llvm

            llvm.initialize_native_target()
            llvm.initialize_native_asmprinter()
            _STATE["llvm"] = llvm
        return _STATE["llvm"]


def _target_machine(opt: int = 2):
    """A fresh target machine for the host CPU (an engine takes ownership of its own)."""
    llvm = _llvm()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    return target.create_target_machine(cpu=llvm.get_host_cpu_name(), features=_host_features(),
                                        opt=opt, codemodel="jitdefault")


def _host_features() -> str:
    with _LOCK:
        if "features" not in _STATE:
            _STATE["features"] = _llvm().get_host_cpu_features().flatten()
        return _STATE["features"]


def target_description() -> str:
    """Everything about the host code that a cached object depends on."""
    llvm = _llvm()
    version = ".".join(str(part) for part in llvm.llvm_version_info)
    return f"llvm {version}; {llvm.get_process_triple()}; {llvm.get_host_cpu_name()}; {_host_features()}"


# The fields of /proc/cpuinfo's first processor that say which CPU this is and what it can
# run: LLVM's host CPU name and features come from the same cpuid bits (and the kernel's
# view of which register states it saves).
CPU_FIELDS = ("vendor_id", "cpu family", "model", "model name", "stepping", "flags")
CPUINFO = "/proc/cpuinfo"


def host_description() -> str:
    """What a cached object depends on besides the source, found without loading LLVM where it
    can be: llvmlite's version and its library's name, size and time stamp, the machine, and
    the CPU as /proc/cpuinfo describes it; elsewhere (no such file, or not those fields)
    ``target_description`` asks LLVM."""
    with _LOCK:
        if "host" not in _STATE:
            _STATE["host"] = _described_without_llvm() or target_description()
        return _STATE["host"]


def _described_without_llvm() -> str | None:
    import llvmlite

    try:
        with open(CPUINFO, encoding="utf-8", errors="replace") as cpuinfo:
            fields = {}
            for line in cpuinfo:
                if not line.strip():
                    break
                name, _, value = line.partition(":")
                fields[name.strip()] = value.strip()
    except OSError:
        return None
    libraries = package_stamp("llvmlite.binding", lambda name: name.startswith("libllvmlite"))
    if not libraries or not all(name in fields for name in CPU_FIELDS):
        return None
    cpu = "; ".join(f"{name}: {fields[name]}" for name in CPU_FIELDS)
    return f"llvmlite {llvmlite.__version__} ({libraries}); {os.uname().machine}; {cpu}"


def compile_object(llvm_ir: str, wave_entry: str = "shc_wave", plan: tuple[int, bool] = (2, False)) -> bytes:
    """The kernel's module linked with the scheduler, verified, optimised as ``plan`` says
    (``host.jit.code_plan``: the level, and whether the short pipeline and the fast code
    generator run), as an object file."""
    llvm = _llvm()
    with _LOCK:
        CACHE_COUNTERS["codegen"] += 1
        try:
            module = llvm.parse_assembly(llvm_ir)
            module.link_in(llvm.parse_assembly(driver_ir(wave_entry)))
            module.verify()
        except RuntimeError as failure:
            raise JitError(f"the host module is not valid LLVM IR: {failure}") from failure
        from ..compiler.backend.host.jit import optimize

        level, short = plan
        machine = _target_machine(0 if short else level)
        module.triple = machine.triple
        module.data_layout = str(machine.target_data)
        optimize(module, machine, max(level, 1), short)
        return machine.emit_object(module)


RUN_GROUPS = ctypes.CFUNCTYPE(
    ctypes.c_int32,
    ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int32, ctypes.c_int32,
    ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p,
)
WAVE = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p)


class LoadedCode:
    """An object file in memory: placed by ``object_loader`` (no LLVM in the process), or, for
    an object that loader does not take or with ``use_llvm``, by its own MCJIT engine.
    Keeps the memory (or the engine) alive; ``loader`` says which ("shc" or "mcjit")."""

    def __init__(self, obj: bytes, wave_entry: str = "shc_wave", use_llvm: bool = False):
        image = None if use_llvm else load_object(obj, (DRIVER_ENTRY, wave_entry))
        if image is not None:
            self._image, self.loader = image, "shc"
            run_address, wave_address = image.addresses
        else:
            self.loader = "mcjit"
            run_address, wave_address = self._mcjit(obj, wave_entry)
        if not run_address or not wave_address:
            raise JitError(f"the object has no '{DRIVER_ENTRY}' or '{wave_entry}' function")
        # ctypes releases the GIL around foreign calls: workers run in parallel.
        self.run_groups = RUN_GROUPS(run_address)
        self.wave = WAVE(wave_address)

    def _mcjit(self, obj: bytes, wave_entry: str) -> tuple[int, int]:
        llvm = _llvm()
        with _LOCK:
            self._engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), _target_machine())
            self._engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
            self._engine.finalize_object()
            return self._engine.get_function_address(DRIVER_ENTRY), self._engine.get_function_address(wave_entry)


# ---------------------------------------------------------------------------------------
# the disk cache
# ---------------------------------------------------------------------------------------


def default_cache_dir() -> Path:
    """The ``kernels/`` folder of shc's cache directory (``$SHC_CACHE_DIR``, else ``~/.cache/shc``)."""
    return cache_dir() / "kernels"


def digest(*parts: Any) -> str:
    """A stable hash of ``parts`` (strings, numbers, lists, tuples, dicts, None)."""
    hasher = sha256()
    hasher.update(repr(_canonical(parts)).encode("utf-8"))
    return hasher.hexdigest()[:40]


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((str(key), _canonical(item)) for key, item in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_canonical(item) for item in value)
    return value


def compiler_fingerprint() -> str:
    """A hash of shc's own compiler and runtime sources (``cache_files.code_fingerprint``)."""
    return code_fingerprint()


# CacheEntry and KernelCache are plain classes: a dataclass compiles its generated methods when
# its module is imported (about half a millisecond each), and a warm kernel load imports this one.
class CacheEntry:
    """One compiled variant: its dependencies, object code and kernel description."""

    __slots__ = ("dependencies", "info", "obj")

    def __init__(self, dependencies: list[tuple[str, str]], obj: bytes, info: Any):
        self.dependencies = dependencies  # (absolute path, sha256 of the text read)
        self.obj = obj
        self.info = info  # kernel.KernelInfo: stored as its ``to_dict()``, read back by the ``decode`` given to lookup


class KernelCache:
    """The ``kernels/`` folder of shc's cache directory: per source key, ``<key>.index`` (JSON)
    and per variant ``<key>-<variant>.o`` (the object) and ``<key>-<variant>.info`` (JSON metadata)."""

    def __init__(self, directory: Path | None = None):
        self.directory = default_cache_dir() if directory is None else directory

    def _index_path(self, key: str) -> Path:
        return self.directory / f"{key}.index"

    def usable(self, create: bool) -> bool:
        """Whether shc's cache directory and this folder in it are private (made 0700 with ``create``)."""
        return all(private_directory(folder, create=create) for folder in (self.directory.parent, self.directory))

    def _load_index(self, key: str) -> list[dict]:
        index = _read_json(self._index_path(key))
        if not isinstance(index, dict) or index.get("format") != CACHE_FORMAT:
            return []
        entries = index.get("entries")
        return [entry for entry in entries if _valid_entry(entry)] if isinstance(entries, list) else []

    def lookup(self, key: str, decode: Callable[[dict], Any]) -> CacheEntry | None:
        """The variant of ``key`` whose dependencies are unchanged and whose files are intact, or
        None (counted). ``decode`` turns the stored description back into a kernel description;
        it raises ValueError when the data is not one."""
        if self.usable(create=False):
            for entry in self._load_index(key):
                if not all(source_unchanged(path, sha) for path, sha in entry["dependencies"]):
                    continue
                variant = self._read_variant(entry, decode)
                if variant is not None:
                    CACHE_COUNTERS["hits"] += 1
                    return variant
        CACHE_COUNTERS["misses"] += 1
        return None

    def _read_variant(self, entry: dict, decode: Callable[[dict], Any]) -> CacheEntry | None:
        """The entry's object and description, if its metadata is whole and the object's hash matches."""

        metadata = _read_json(self.directory / entry["info"])
        if not isinstance(metadata, dict) or metadata.get("format") != CACHE_FORMAT:
            return None
        obj = read_private(self.directory / entry["object"])
        if obj is None or sha256(obj).hexdigest() != metadata.get("object_sha256"):
            return None  # damaged, truncated or replaced: LLVM must never load it
        try:
            info = decode(metadata["kernel"])
        except (KeyError, ValueError):
            return None
        return CacheEntry([tuple(dependency) for dependency in entry["dependencies"]], obj, info)

    def store(self, key: str, entry: CacheEntry) -> None:
        """Write the variant's files, then publish it in the key's index (best effort)."""

        variant = digest(entry.dependencies)[:16]
        names = {"object": f"{key}-{variant}.o", "info": f"{key}-{variant}.info"}
        metadata = {"format": CACHE_FORMAT, "object_sha256": sha256(entry.obj).hexdigest(),
                    "kernel": entry.info.to_dict()}
        try:
            if not self.usable(create=True):
                return
            write_private(self.directory / names["object"], entry.obj)
            write_private(self.directory / names["info"], _json_bytes(metadata))
            entries = [old for old in self._load_index(key) if old["object"] != names["object"]]
            entries.append({"dependencies": [list(dependency) for dependency in entry.dependencies], **names})
            write_private(self._index_path(key), _json_bytes({"format": CACHE_FORMAT, "entries": entries[-8:]}))
        except OSError:
            return  # a read-only or full cache directory only costs speed
        CACHE_COUNTERS["stores"] += 1


def _valid_entry(entry: Any) -> bool:
    """An index entry as ``store`` writes it: (path, sha256) dependency pairs and two file names
    in the folder itself."""
    if not isinstance(entry, dict) or set(entry) != {"dependencies", "object", "info"}:
        return False
    names = (entry["object"], entry["info"])
    if not all(isinstance(name, str) and name and name == os.path.basename(name) and not name.startswith(".")
               for name in names):
        return False
    dependencies = entry["dependencies"]
    return isinstance(dependencies, list) and all(
        isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair)
        for pair in dependencies)


def _read_json(path: Path) -> Any:
    """The JSON value in the cache file ``path``, or None when it is missing, untrusted or not JSON."""

    data = read_private(path)
    if data is None:
        return None
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode("utf-8")
