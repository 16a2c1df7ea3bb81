"""LLVM's assembly for the cross-check, kept on disk: a warm ``shc regs`` starts no LLVM child.

What LLVM's AMDGPU backend prints for a kernel is decided by the LLVM IR it is given,
the wave size, whether LLVM's O2 module pipeline runs first, the LLVM build (llvmlite's
version fixes it) and what the child process does (``check.py``'s own source: its
target options). The key is a hash of all of them, so an edited ``check.py``, another
llvmlite or another IR text never reads an old answer; ``tight_vgprs``'s capped compiles
are IR texts of their own and are kept the same way.

An entry is ``llvm/<key>.s`` in shc's cache directory: one JSON header line (format,
key, the body's sha256), then the assembly exactly as the child printed it. Only a
successful compile is stored (an abort, a rejection or a timeout runs again next time).
A file whose header, key or hash is not right is a miss, compiled again and rewritten.
The files follow ``compiler/cache_files.py``'s rules (data, never code; private files,
written atomically).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ...cache_files import cache_dir, private_directory, read_private, write_private

FORMAT = 1  # bump when the entry's layout changes


def assembly_key(llvm_ir: str, wave_size: int, optimize: bool, child_source: Path) -> str:
    """The hash of everything the child's assembly depends on."""
    import llvmlite  # the package's version only: the LLVM library is not loaded here

    digest = hashlib.sha256(f"{FORMAT}\0{llvmlite.__version__}\0{wave_size}\0{optimize}\0".encode())
    digest.update(hashlib.sha256(child_source.read_bytes()).digest())
    digest.update(llvm_ir.encode("utf-8"))
    return digest.hexdigest()[:40]


def load_assembly(key: str) -> str | None:
    """The stored assembly for ``key``, or None (missing, untrusted, damaged or another key's)."""
    folder = cache_dir() / "llvm"
    if not private_directory(folder, create=False):
        return None
    data = read_private(folder / f"{key}.s")
    if data is None:
        return None
    header, _, body = data.partition(b"\n")
    try:
        if json.loads(header) != _header(key, body):
            return None
        return body.decode("utf-8")
    except (ValueError, RecursionError):  # not JSON, or not UTF-8
        return None


def store_assembly(key: str, assembly: str) -> None:
    """Keep ``assembly`` under ``key`` (best effort: a cache it cannot write only costs speed)."""
    folder = cache_dir() / "llvm"
    body = assembly.encode("utf-8")
    try:
        if private_directory(folder.parent, create=True) and private_directory(folder, create=True):
            write_private(folder / f"{key}.s", json.dumps(_header(key, body)).encode() + b"\n" + body)
    except OSError:
        pass


def _header(key: str, body: bytes) -> dict:
    return {"format": FORMAT, "key": key, "sha256": hashlib.sha256(body).hexdigest()}
