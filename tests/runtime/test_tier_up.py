"""A large kernel's first compile in two tiers (``runtime/tier_up.py``): the quick object runs
first, a child stores the O2 object under the kernel's key, and later dispatches take it.

Each test lowers ``TIER_UP_LINES`` to tier a small kernel (SPD's own test keeps the real
threshold) and compiles at the default level (the suite runs at level 0).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import shc
from shc.runtime import jit, spd, tier_up
from shc.runtime.kernel import Kernel
from shc.spd import reference_mips

SOURCE = """
RWStructuredBuffer<float> dst;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { dst[id.x] = sqrt((float)id.x) * 0.75 + OFFSET; }
"""
EXPECTED = (np.sqrt(np.arange(128, dtype=np.float32)) * np.float32(0.75) + np.float32(3.0)).astype(np.float32)


@pytest.fixture
def kernels(tmp_path, monkeypatch, shc_cache, default_opt):
    """A private, empty kernel cache and zeroed counters."""
    directory = tmp_path / "kernels"
    monkeypatch.setattr(jit, "default_cache_dir", lambda: directory)
    for name in jit.CACHE_COUNTERS:
        monkeypatch.setitem(jit.CACHE_COUNTERS, name, 0)
    return directory


def compile_it(offset: str = "3.0"):
    return shc.compile(SOURCE, defines={"OFFSET": offset})


def run(kernel) -> np.ndarray:
    out = np.zeros(128, np.float32)
    kernel.dispatch((2, 1, 1), dst=out)
    return out


def o2_object(monkeypatch, directory) -> bytes:
    """The kernel compiled at O2 in this process, into another cache (no tiering)."""
    with monkeypatch.context() as patch:
        patch.setattr(tier_up, "TIER_UP_LINES", 10**9)
        patch.setattr(jit, "default_cache_dir", lambda: directory)
        kernel = compile_it()
    assert kernel.tier_up is None
    return kernel.object_code


def test_the_quick_object_runs_first_and_the_o2_object_follows(kernels, monkeypatch, tmp_path):
    monkeypatch.setattr(tier_up, "TIER_UP_LINES", 1)
    kernel = compile_it()
    quick, child = kernel.object_code, kernel.tier_up
    assert child is not None and not kernel.from_cache
    assert jit.CACHE_COUNTERS["codegen"] == 1 and jit.CACHE_COUNTERS["stores"] == 0  # the quick object is not stored
    np.testing.assert_array_equal(run(kernel), EXPECTED)  # the quick object, or the O2 one if the child was first

    assert child.wait(timeout=120)
    o2 = o2_object(monkeypatch, tmp_path / "elsewhere")
    assert quick != o2
    again = compile_it()  # a later compile (a later process) finds the child's O2 object
    assert again.from_cache and again.object_code == o2 and again.tier_up is None

    np.testing.assert_array_equal(run(kernel), EXPECTED)  # this dispatch takes the O2 object
    assert kernel.tier_up is None and kernel.object_code == o2


def test_only_long_modules_at_o2_are_tiered(monkeypatch):
    monkeypatch.setattr(tier_up, "TIER_UP_LINES", 3)
    assert tier_up.worth_tiering("a\nb\nc\n", (2, False))
    assert not tier_up.worth_tiering("a\nb\n", (2, False))
    for plan in ((0, True), (1, False), (2, True)):  # SHC_OPT=0 or 1, or too large for O2
        assert not tier_up.worth_tiering("a\nb\nc\n", plan)


def test_shc_tier_up_0_turns_the_child_off(kernels, monkeypatch, tmp_path):
    monkeypatch.setattr(tier_up, "TIER_UP_LINES", 1)
    monkeypatch.setenv("SHC_TIER_UP", "0")
    kernel = compile_it()
    assert kernel.tier_up is None and jit.CACHE_COUNTERS["stores"] == 1  # O2 here, stored as usual
    assert kernel.object_code == o2_object(monkeypatch, tmp_path / "elsewhere")
    for value in ("1", " 1 ", ""):
        monkeypatch.setenv("SHC_TIER_UP", value)
        assert tier_up.worth_tiering("a\nb\n", (2, False))


@pytest.mark.parametrize("value", ["no", "2", "off"])
def test_a_bad_shc_tier_up_is_an_error(monkeypatch, value):
    monkeypatch.setattr(tier_up, "TIER_UP_LINES", 1)
    monkeypatch.setenv("SHC_TIER_UP", value)
    with pytest.raises(ValueError, match=f"SHC_TIER_UP must be 0 or 1, not '{value}'"):
        tier_up.worth_tiering("a\nb\n", (2, False))


def test_the_command_line_refuses_a_bad_shc_tier_up_before_any_work(tmp_path):
    source = tmp_path / "k.hlsl"
    source.write_text("RWStructuredBuffer<uint> o; [numthreads(1,1,1)] void main() { o[0] = 1; }\n")
    command = [sys.executable, "-m", "shc.compiler.cli", "check", str(source)]
    bad = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, SHC_TIER_UP="off"),
                         timeout=120)
    assert bad.returncode == 1
    assert bad.stderr.strip() == "shc: error: SHC_TIER_UP must be 0 or 1, not 'off'"
    good = subprocess.run(command, capture_output=True, text=True, env=dict(os.environ, SHC_TIER_UP="0"),
                          timeout=120)
    assert good.returncode == 0, good.stderr


def test_an_unwritable_cache_compiles_o2_here(kernels, monkeypatch, tmp_path):
    monkeypatch.setattr(tier_up, "TIER_UP_LINES", 1)
    with monkeypatch.context() as patch:
        patch.setattr(jit.KernelCache, "usable", lambda self, create=False: False)
        kernel = compile_it()
    assert kernel.tier_up is None and jit.CACHE_COUNTERS["codegen"] == 1
    assert kernel.object_code == o2_object(monkeypatch, tmp_path / "elsewhere")


def test_the_child_imports_this_processs_shc_not_one_in_its_working_directory(kernels, monkeypatch, tmp_path):
    elsewhere = tmp_path / "elsewhere-checkout"
    (elsewhere / "shc").mkdir(parents=True)
    marker = elsewhere / "imported"
    (elsewhere / "shc" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.chdir(elsewhere)
    monkeypatch.setattr(tier_up, "TIER_UP_LINES", 1)
    kernel = compile_it()
    assert kernel.tier_up.wait(timeout=120)  # it compiled and stored with this process's shc
    assert not marker.exists()
    assert compile_it().from_cache


def test_a_request_cut_short_stores_nothing(kernels, monkeypatch):
    monkeypatch.setattr(tier_up, "TIER_UP_LINES", 1)
    kernel = compile_it()
    assert kernel.tier_up.wait(timeout=120)
    kernel.tier_up = None
    whole = {"directory": str(kernels), "key": "0" * 40, "plan": [2, False], "dependencies": [],
             "kernel": kernel.info.to_dict(), "ir_bytes": 1000}
    payload = json.dumps(whole).encode() + b"\n" + b"; only a part of the module\n"
    child = subprocess.run([sys.executable, "-m", "shc.runtime.tier_up"], input=payload, capture_output=True,
                           timeout=120, env=dict(os.environ))
    assert child.returncode == 2, child.stderr
    assert not list(kernels.glob("0000*"))


def test_spd_is_exact_in_both_tiers(kernels, monkeypatch):
    """SPD's module is past the real threshold: it is compiled in two tiers. Each object runs
    the chain (the quick one as a kernel of its own: the child may finish before a dispatch)."""
    kernel = shc.compile_file(spd.SAMPLE, defines=spd.defines_for())
    quick, child = kernel.object_code, kernel.tier_up
    assert child is not None
    first_tier = Kernel(kernel.info, quick)
    monkeypatch.setattr(spd, "_KERNELS", {spd._options_key(True, False, False, 32): first_tier})
    downsampler = shc.spd.Downsampler()
    image = np.random.default_rng(11).random((96, 128, 4), dtype=np.float32)
    want = reference_mips(image)
    assert child.wait(timeout=300)
    for tier, compiled in (("quick", first_tier), ("O2", kernel)):
        downsampler.kernel = compiled
        got = downsampler.run(image).mips
        for index, (mine, theirs) in enumerate(zip(got, want, strict=True), start=1):
            np.testing.assert_array_equal(mine, theirs, err_msg=f"{tier} object, mip {index}")
    assert first_tier.object_code == quick
    assert kernel.tier_up is None and kernel.object_code != quick  # the O2 object, from the cache
