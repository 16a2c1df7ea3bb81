"""``SHC_OPT``: every optimisation level computes the same bits, and a bad level is refused.

The suite itself runs at level 0 (``tests/conftest.py``); these tests compare it with the
default level on kernels where a difference in code generation would show: IEEE special
values through every kind of float arithmetic (a contraction into an FMA, a reassociation
or a different denormal mode changes bits), integer edge cases, and SPD's whole chain.
"""

from __future__ import annotations

import os
import subprocess
import sys

from pathlib import Path

import numpy as np
import pytest

import shc
from shc.spd import downsample, reference_mips

SPD = Path(__file__).resolve().parents[2] / "samples" / "spd.hlsl"
FLOATS = np.array([0.0, -0.0, 1.0, -1.5, 3.0e38, -3.0e38, 1.0e-38, -1.0e-39, 1.4e-45, np.inf, -np.inf, np.nan,
                   0.1, 1.0 / 3.0, 16777217.0, 2.5, -2.5, 7.0e-20, 123456.789, -0.75] * 4, dtype=np.float32)

ARITHMETIC = """
StructuredBuffer<float> a;
RWStructuredBuffer<float4> o;
RWStructuredBuffer<uint4> n;
[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x], y = a[(id.x + 7) % 80], z = a[(id.x + 13) % 80];
    o[id.x * 4 + 0] = float4(x * y + z, x * y - z * x, (x + y) + z, x / y);
    o[id.x * 4 + 1] = float4(sqrt(x), rsqrt(y), exp2(x), log2(y));
    o[id.x * 4 + 2] = float4(mad(x, y, z), fma((double)x, y, z), frac(x), fmod(x, y));
    o[id.x * 4 + 3] = float4(min(x, y), max(x, z), saturate(x), lerp(x, y, 0.25));
    int i = asint(x), j = asint(y);
    n[id.x * 2 + 0] = uint4(i * j, i / (j | 1), uint(i) >> 3, uint(i) % (uint(j) | 1u));
    n[id.x * 2 + 1] = uint4(firstbithigh(i), countbits(j), reversebits(uint(i)), uint(x));
}
"""


def run(monkeypatch, level: str, wave: int) -> tuple[np.ndarray, np.ndarray]:
    monkeypatch.setenv("SHC_OPT", level)
    kernel = shc.compile(ARITHMETIC, wave_size=wave)
    floats = np.zeros((FLOATS.size * 4, 4), np.float32)
    ints = np.zeros((FLOATS.size * 2, 4), np.uint32)
    kernel.dispatch((FLOATS.size // 32, 1, 1), a=FLOATS, o=floats, n=ints)
    return floats, ints


@pytest.mark.parametrize("wave", [32, 64])
def test_levels_compute_the_same_bits(monkeypatch, wave):
    fast = run(monkeypatch, "0", wave)
    for level in ("1", "2"):
        other = run(monkeypatch, level, wave)
        for mine, theirs in zip(fast, other):
            np.testing.assert_array_equal(mine.view(np.uint32), theirs.view(np.uint32), err_msg=f"SHC_OPT={level}")


def test_spd_is_exact_at_every_level(monkeypatch):
    image = np.random.default_rng(5).random((128, 96, 4), dtype=np.float32)
    want = reference_mips(image)
    for level in ("0", "2"):
        monkeypatch.setenv("SHC_OPT", level)
        got = downsample(image)
        assert len(got) == len(want)
        for index, (mine, theirs) in enumerate(zip(got, want), start=1):
            np.testing.assert_array_equal(mine, theirs, err_msg=f"SHC_OPT={level}, mip {index}")


def test_each_level_is_its_own_cache_entry(monkeypatch, tmp_path):
    monkeypatch.setenv("SHC_CACHE_DIR", str(tmp_path))
    source = "RWStructuredBuffer<uint> o; [numthreads(32,1,1)] void main(uint3 i : SV_DispatchThreadID) { o[i.x] = i.x * 3; }"
    monkeypatch.setenv("SHC_OPT", "0")
    shc.compile(source)
    monkeypatch.setenv("SHC_OPT", "2")
    assert not shc.compile(source).from_cache
    assert shc.compile(source).from_cache


@pytest.mark.parametrize("bad", ["3", "fast", "-1"])
def test_a_bad_level_is_a_clear_error(monkeypatch, bad):
    monkeypatch.setenv("SHC_OPT", bad)
    with pytest.raises(ValueError, match="SHC_OPT must be one of 0, 1, 2"):
        shc.compile("RWStructuredBuffer<uint> o; [numthreads(1,1,1)] void main() { o[0] = 1; }")
    run_cli = subprocess.run([sys.executable, "-m", "shc.compiler.cli", "check", str(SPD)],
                             capture_output=True, text=True, env=dict(os.environ, SHC_OPT=bad), timeout=120)
    assert run_cli.returncode == 1
    assert run_cli.stderr.strip() == f"shc: error: SHC_OPT must be one of 0, 1, 2, not '{bad}'"
