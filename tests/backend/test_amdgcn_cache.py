"""The LLVM cross-check's disk cache: a second compile of the same LLVM IR runs no child
process and gives the same assembly and figures; a damaged entry, another wave size,
LLVM's O2 pipeline or another IR text is a miss; a failure is never stored."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from shc.compiler.backend.amdgcn import check
from shc.compiler.backend.amdgcn.check import compile_llvm_ir

KERNEL = """
define amdgpu_kernel void @k(ptr addrspace(1) %p) {
  %x = load float, ptr addrspace(1) %p
  %y = fmul float %x, 2.0
  store float %y, ptr addrspace(1) %p
  ret void
}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("SHC_CACHE_DIR", str(tmp_path))
    return tmp_path


@pytest.fixture
def children(monkeypatch) -> list:
    """The LLVM child processes started (each call of subprocess.run in check.py)."""
    started = []
    real = subprocess.run

    def counting(*args, **kwargs):
        started.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(check.subprocess, "run", counting)
    return started


def test_a_second_compile_reads_the_cache(cache, children):
    first = compile_llvm_ir(KERNEL, 32)
    second = compile_llvm_ir(KERNEL, 32)
    assert first.ok and second.ok, first.message
    assert len(children) == 1
    assert not first.cached and second.cached
    assert second.isa == first.isa and second.llvm_ir == first.llvm_ir
    assert (second.vgprs, second.sgprs, second.occupancy, second.lds, second.scratch) == \
           (first.vgprs, first.sgprs, first.occupancy, first.lds, first.scratch)
    assert len(list((cache / "llvm").iterdir())) == 1


@pytest.mark.parametrize("change", ["wave64", "optimize", "text"])
def test_what_changes_the_assembly_is_a_miss(cache, children, change):
    assert compile_llvm_ir(KERNEL, 32).ok
    other = {"wave64": lambda: compile_llvm_ir(KERNEL, 64),
             "optimize": lambda: compile_llvm_ir(KERNEL, 32, optimize=True),
             "text": lambda: compile_llvm_ir(KERNEL.replace("2.0", "3.0"), 32)}[change]()
    assert other.ok and not other.cached
    assert len(children) == 2


def test_a_damaged_entry_compiles_again_and_is_rewritten(cache, children):
    first = compile_llvm_ir(KERNEL, 32)
    (entry,) = (cache / "llvm").iterdir()
    data = entry.read_bytes()
    entry.write_bytes(data[:-40] + b"v_mov_b32 v0, 0 ; planted\n" + data[-14:])
    again = compile_llvm_ir(KERNEL, 32)
    assert not again.cached and again.isa == first.isa and len(children) == 2
    assert entry.read_bytes() == data
    assert compile_llvm_ir(KERNEL, 32).cached


def test_a_failure_is_not_stored(cache, children):
    assert not compile_llvm_ir("define amdgpu_kernel void @k( {", 32).ok
    assert not compile_llvm_ir("define amdgpu_kernel void @k( {", 32).ok
    assert len(children) == 2
    assert not (cache / "llvm").exists() or not list((cache / "llvm").iterdir())


def test_a_cache_file_others_can_write_is_ignored(cache, children, capsys):
    compile_llvm_ir(KERNEL, 32)
    (entry,) = (cache / "llvm").iterdir()
    entry.chmod(0o666)
    assert not compile_llvm_ir(KERNEL, 32).cached
    assert "writable by other users" in capsys.readouterr().err
