"""Loading object code without LLVM (runtime/object_loader.py) and the warm path that uses it.

A kernel-cache hit places the cached object in memory itself: the process never loads
LLVM (about 36 MiB and 30 ms of llvmlite's library start-up). The loader takes what
LLVM's large code model emits for shc's kernels and refuses anything else, which then
goes through MCJIT as before; both must run the same code to the same results.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import shc
from shc.compiler import cache_files
from shc.runtime import jit, object_loader

SOURCE = """
RWStructuredBuffer<float> dst;
StructuredBuffer<float> src;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float x = src[id.x];
    dst[id.x] = fmod(x * 3.5, 2.25) + exp2(x) + (x > 0.5 ? sin(x) : x * x);
}
"""

# A function that reads a constant table (an absolute relocation), calls the C library's
# fmodf (an undefined symbol) and, with uwtable, has an .eh_frame (PC64 relocations).
TABLE_IR = """
@table = internal constant [4 x float] [float 1.5, float 2.5, float -4.0, float 8.25]
declare float @fmodf(float, float)
define float @pick(i32 %i, float %x) #0 {
  %p = getelementptr [4 x float], ptr @table, i32 0, i32 %i
  %v = load float, ptr %p
  %m = call float @fmodf(float %x, float %v)
  ret float %m
}
attributes #0 = { noinline uwtable }
"""


def _object(ir: str, codemodel: str) -> bytes:
    llvm = jit._llvm()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    machine = target.create_target_machine(codemodel=codemodel, opt=2)
    module = llvm.parse_assembly(ir)
    module.triple = machine.triple
    module.data_layout = str(machine.target_data)
    return machine.emit_object(module)


def _pick(image) -> ctypes.CFUNCTYPE:
    (address,) = image.addresses
    return ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_int32, ctypes.c_float)(address)


def test_the_loader_places_and_relocates_an_object_and_resolves_the_c_library():
    obj = _object(TABLE_IR, "jitdefault")
    image = object_loader.load_object(obj, ("pick",))
    assert image is not None
    pick = _pick(image)
    table = np.array([1.5, 2.5, -4.0, 8.25], np.float32)
    for index in range(4):
        x = np.float32(17.75)
        assert pick(index, x) == np.float32(np.fmod(x, table[index]))


def test_what_the_loader_does_not_handle_is_refused():
    small = _object(TABLE_IR, "small")  # 32-bit PC-relative relocations: not taken
    assert object_loader.load_object(small, ("pick",)) is None
    obj = _object(TABLE_IR, "jitdefault")
    assert object_loader.load_object(obj, ("no_such_function",)) is None
    for damaged in (b"", obj[:64], obj[: len(obj) // 2], b"\x7fELF" + bytes(200), os.urandom(4096)):
        assert object_loader.load_object(damaged, ("pick",)) is None


def test_a_damaged_object_is_refused_or_loaded_never_followed():
    """Bytes changed anywhere in the headers, section table or symbols: the loader returns None or
    an image, and never raises or writes outside its own mapping (it would crash the test)."""
    obj = _object(TABLE_IR, "jitdefault")
    rng = np.random.default_rng(15)
    tables = min(int.from_bytes(obj[0x28:0x30], "little"), obj.index(b"pick") - 256)  # relocations, symbols
    places = list(range(64)) + list(range(max(tables, 64), len(obj)))
    for _ in range(300):
        damaged = bytearray(obj)
        for where in rng.choice(places, 3):
            damaged[where] = int(rng.integers(256))
        object_loader.load_object(bytes(damaged), ("pick",))


@pytest.fixture
def kernel(tmp_path, monkeypatch):
    monkeypatch.setenv("SHC_CACHE_DIR", str(tmp_path))
    return shc.compile(SOURCE)


def _run(kernel) -> np.ndarray:
    src = np.linspace(0, 1, 256, dtype=np.float32)
    dst = np.zeros(256, np.float32)
    kernel.dispatch((4, 1, 1), dst=dst, src=src)
    return dst


def test_the_loader_and_mcjit_compute_the_same_bits(kernel):
    kernel._code = jit.LoadedCode(kernel.object_code, kernel.info.wave_entry)
    assert kernel._code.loader == "shc"
    ours = _run(kernel)
    kernel._code = jit.LoadedCode(kernel.object_code, kernel.info.wave_entry, use_llvm=True)
    assert kernel._code.loader == "mcjit"
    assert ours.tobytes() == _run(kernel).tobytes()


def test_a_cache_hit_runs_without_loading_llvm(tmp_path, monkeypatch):
    monkeypatch.setenv("SHC_CACHE_DIR", str(tmp_path))
    cache_files.code_fingerprint.cache_clear()  # the sources as they are now, as the new process sees them
    expected = _run(shc.compile(SOURCE))
    script = textwrap.dedent(f"""
        import json, sys, numpy as np, shc
        k = shc.compile({SOURCE!r})
        src = np.linspace(0, 1, 256, dtype=np.float32)
        dst = np.zeros(256, np.float32)
        k.dispatch((4, 1, 1), dst=dst, src=src)
        print(json.dumps({{"from_cache": k.from_cache, "dst": dst.tolist(),
                          "llvm": sorted(name for name in sys.modules if name.startswith("llvmlite.binding"))}}))
    """)
    run = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, SHC_CACHE_DIR=str(tmp_path)))
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["from_cache"] and report["llvm"] == []
    assert np.array_equal(np.array(report["dst"], np.float32), expected)


CPUINFO = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 1
model name\t: AMD EPYC
stepping\t: 1
cpu MHz\t\t: {mhz}
flags\t\t: fpu sse sse2 avx {extra}

processor\t: 1
vendor_id\t: OtherVendor
"""


def test_the_cache_key_describes_the_host_without_llvm(tmp_path, monkeypatch):
    """The first processor's identity and flags are in the description; its clock is not; a
    CPU file without them leaves the description to LLVM."""
    def described(text: str) -> str | None:
        path = tmp_path / "cpuinfo"
        path.write_text(text)
        monkeypatch.setattr(jit, "CPUINFO", str(path))
        return jit._described_without_llvm()

    avx2 = described(CPUINFO.format(mhz="2445.406", extra="avx2"))
    assert "AuthenticAMD" in avx2 and "avx2" in avx2 and "OtherVendor" not in avx2
    assert described(CPUINFO.format(mhz="3000.000", extra="avx2")) == avx2
    assert described(CPUINFO.format(mhz="2445.406", extra="avx512f")) != avx2
    assert described("processor\t: 0\nFeatures\t: fp asimd\n") is None
    monkeypatch.setattr(jit, "CPUINFO", str(tmp_path / "missing"))
    assert jit._described_without_llvm() is None
