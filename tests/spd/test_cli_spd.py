"""The SPD sample from the command line: ``shc compile --target rdna2``, ``shc regs``, ``shc spd``.

``shc compile --target rdna2`` on the sample goes through the installed ``shc`` script, as a
user types it; the other commands run the typer app in-process (tests/cli_runner.py: the same
code, no start-up cost).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from shc.spd import downsample, reference_mips

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
from cli_runner import shc  # noqa: E402

PIL = pytest.importorskip("PIL.Image")

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "spd.hlsl"
SCRIPT = Path(sys.executable).with_name("shc")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "shc.compiler.cli"]


def installed_shc(*args, cwd=None):
    """The installed ``shc`` script in a new process."""
    return subprocess.run(COMMAND + [str(a) for a in args], capture_output=True, text=True, cwd=cwd, timeout=300)


def mnemonics(listing: str) -> list[str]:
    return [line.split()[0] for line in listing.splitlines() if line.startswith("  ") and line.split()]


# ---------------------------------------------------------------------------------------
# shc compile / shc regs on the sample
# ---------------------------------------------------------------------------------------


def test_compile_for_rdna2():
    done = installed_shc("compile", "samples/spd.hlsl", "--target", "rdna2", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    listing = done.stdout
    assert re.search(r"^; VGPRs\s+\d+ used, \d+ allocated", listing, re.M)
    assert re.search(r"^; occupancy\s+\d+ waves per SIMD", listing, re.M)
    assert "imgDst6" in listing and "spdGlobalAtomic" in listing
    ops = mnemonics(listing)
    # mip 2..6 in registers: quad reductions as DPP quad_perm VALU ops
    dpp = [line for line in listing.splitlines() if "_dpp" in line and "quad_perm:" in line]
    assert any(line.split()[0].startswith(("v_add_f32_dpp", "v_mov_b32_dpp")) for line in dpp)
    assert len(dpp) >= 16
    assert any(op.startswith("ds_write") for op in ops) and any(op.startswith("ds_read") for op in ops)
    assert "s_barrier" in ops
    assert any(op.startswith("buffer_atomic_add") for op in ops)  # the global counter
    assert any(op.startswith("image_load") for op in ops) and any(op.startswith("image_store") for op in ops)


def test_compile_for_rdna2_without_wave_ops():
    done = shc("compile", SAMPLE, "--target", "rdna2", "-D", "SPD_NO_WAVE_OPERATIONS")
    assert done.returncode == 0, done.stderr
    ops = mnemonics(done.stdout)
    assert "quad_perm" not in done.stdout
    with_wave_ops = mnemonics(shc("compile", SAMPLE, "--target", "rdna2").stdout)
    # LDS does the quads' work: more groupshared traffic and more barriers
    assert ops.count("s_barrier") > with_wave_ops.count("s_barrier")
    assert sum(op.startswith("ds_read") for op in ops) > sum(op.startswith("ds_read") for op in with_wave_ops)


def test_regs_report():
    done = shc("regs", "samples/spd.hlsl", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "entry main, numthreads(256, 1, 1)" in out
    header = next(line for line in out.splitlines() if "wave32" in line and "wave64" in line)
    assert header.split() == ["wave32", "wave64"]
    vgprs = re.search(r"^VGPRs used / allocated\s+(\d+) / (\d+)\s+(\d+) / (\d+)$", out, re.M)
    assert vgprs, out
    used32, allocated32, used64, allocated64 = map(int, vgprs.groups())
    assert 0 < used32 <= allocated32 <= 256 and 0 < used64 <= allocated64 <= 256
    assert re.search(r"^occupancy \(waves/SIMD\)\s+\d+ \(\w+\)\s+\d+ \(\w+\)$", out, re.M)
    assert re.search(r"^LDS bytes\s+\d+\s+\d+$", out, re.M)
    assert "source lines with the most live VGPRs" in out


# ---------------------------------------------------------------------------------------
# shc spd
# ---------------------------------------------------------------------------------------


def gradient(height, width, channels=3) -> np.ndarray:
    y, x = np.mgrid[0:height, 0:width]
    planes = [x * 255 // max(width - 1, 1), y * 255 // max(height - 1, 1), (x ^ y) & 255, (x * y) & 255]
    return np.stack(planes[:channels], axis=-1).astype(np.uint8)


def read_png(path) -> np.ndarray:
    with PIL.open(path) as picture:
        return np.asarray(picture)


def test_spd_on_a_png(tmp_path):
    pixels = gradient(150, 230)
    PIL.fromarray(pixels).save(tmp_path / "in.png")
    done = shc("spd", tmp_path / "in.png", "-o", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "230 x 150, 3 channels, uint8" in out
    assert re.search(r"^dispatch\s+4 x 3 x 1 groups, numWorkGroups 12, workGroupOffset \(0, 0\), mips 7$", out, re.M)
    assert re.search(r"^registers\s+wave32: \d+ VGPRs \(\d+ allocated\), \d+ SGPRs, .*occupancy \d+ waves/SIMD", out,
                     re.M), out
    assert re.search(r"^groups\s+4 x 3 x 1\s+\(96 waves of 32 lanes", out, re.M)
    assert "mean active lanes" in out and re.search(r"^atomics\s+12$", out, re.M)
    expected = downsample(pixels)
    for mip, level in enumerate(expected, start=1):
        np.testing.assert_array_equal(read_png(tmp_path / "out" / f"mip_{mip:02d}.png"), level)
    assert not list((tmp_path / "out").glob("*.npy"))
    sheet = read_png(tmp_path / "out" / "chain.png")
    assert sheet.shape == (150, 230 + sum(level.shape[1] for level in expected), 3)
    np.testing.assert_array_equal(sheet[:, :230], pixels)
    np.testing.assert_array_equal(sheet[:75, 230:345], expected[0])


def test_spd_on_float_slices(tmp_path):
    array = np.random.default_rng(1).random((2, 100, 130, 2), dtype=np.float32) * 4 - 1
    np.save(tmp_path / "in.npy", array)
    done = shc("spd", tmp_path / "in.npy", "-o", tmp_path / "out", "--mips", "3", "--no-wave-ops",
               "--wave-size", "64")
    assert done.returncode == 0, done.stderr
    assert "defines: SPD_NO_WAVE_OPERATIONS" in done.stdout and "wave64" in done.stdout
    expected = reference_mips(array, 3)
    for mip, level in enumerate(expected, start=1):
        np.testing.assert_array_equal(np.load(tmp_path / "out" / f"mip_{mip:02d}.npy"), level)
        for index in range(2):
            preview = read_png(tmp_path / "out" / f"mip_{mip:02d}_slice{index:02d}.png")
            assert preview.shape == level.shape[1:3] + (2,)  # L + A
    assert not (tmp_path / "out" / "mip_04.npy").exists()
    sheet = read_png(tmp_path / "out" / "chain.png")
    assert sheet.shape == (200, 130 + 65 + 32 + 16, 2)  # one row per slice


def test_spd_packed_linear_on_a_grey_png(tmp_path):
    pixels = gradient(64, 96, 1)[..., 0]
    PIL.fromarray(pixels).save(tmp_path / "grey.png")
    done = shc("spd", tmp_path / "grey.png", "-o", tmp_path / "out", "--packed", "--linear-sampler")
    assert done.returncode == 0, done.stderr
    assert "defines: SPD_LINEAR_SAMPLER, A_HALF" in done.stdout
    expected = np.rint(reference_mips(pixels)[0] * 255).astype(int)
    got = read_png(tmp_path / "out" / "mip_01.png").astype(int)
    assert got.shape == (32, 48) and np.abs(got - expected).max() <= 1


def test_spd_reads_a_multi_page_tiff_as_slices(tmp_path):
    pages = [PIL.fromarray(gradient(70, 90, 3) // (index + 1)) for index in range(3)]
    pages[0].save(tmp_path / "stack.tiff", save_all=True, append_images=pages[1:])
    done = shc("spd", tmp_path / "stack.tiff", "-o", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert "90 x 70 x 3 slices" in done.stdout
    assert (tmp_path / "out" / "mip_06_slice02.png").exists()
    assert read_png(tmp_path / "out" / "chain.png").shape[0] == 3 * 70


@pytest.mark.parametrize("args, message", [
    (["missing.png"], "no such file"),
    (["text.png"], "Pillow cannot read it"),
    (["small.npy", "--mips", "9"], "mips must be 0..4"),
    (["small.npy", "--wave-size", "48"], "--wave-size must be 32 or 64"),
    (["wide.npy"], "C of 1 to 4"),
    (["double.npy", "--mips", "1"], "int64"),
])
def test_spd_user_errors(tmp_path, args, message):
    (tmp_path / "text.png").write_text("not an image")
    np.save(tmp_path / "small.npy", np.zeros((20, 30, 4), np.float32))
    np.save(tmp_path / "wide.npy", np.zeros((20, 30, 7), np.float32))
    np.save(tmp_path / "double.npy", np.zeros((20, 30, 4), np.int64))
    args = [str(tmp_path / args[0])] + args[1:]
    done = shc("spd", *args, "-o", tmp_path / "out")
    assert done.returncode == 1, done.stderr
    assert "shc: error:" in done.stderr and message in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
