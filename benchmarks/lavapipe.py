"""lavapipe (Mesa's Vulkan driver that runs on the CPU) as an optional peer for the common kernels.

The same HLSL files as shc runs (``kernels/``) go through ``glslangValidator -D`` to SPIR-V and
are dispatched by ``lavapipe/vkrun.c``, a small Vulkan program built with gcc when the benchmark
runs. Registers become bindings in set 0: b<n> -> n, t<n> -> 10 + n, u<n> -> 20 + n. Each
timing is the dispatch alone (submit to fence; lavapipe's buffers are host memory, filled
once), as shc's are; the scan's is the sum of its two dispatches in each round. Needs
glslangValidator, gcc, the Vulkan headers and loader, and the lavapipe ICD: ``missing()``
names what is not there.
"""

from __future__ import annotations

import ctypes.util
import glob
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
from common_kernels import (
    HISTOGRAM_BINS,
    HISTOGRAM_WORDS_PER_GROUP,
    KERNELS,
    SCAN_ROWS,
    SCAN_SLOTS_PER_TILE,
    TRANSPOSE_TILE,
)

HERE = Path(__file__).resolve().parent
TEXTURE_BASE, UAV_BASE = 10, 20
# glslang (12.0, Debian 12's) emits HLSL's WavePrefixSum as an inclusive scan, though HLSL's is
# exclusive (DXC's and shc's; glslang issue #2929 is the same mistake in WavePrefixCountBits):
# take the lane's own value back off, so the peer computes what the kernel means.
GLSLANG_FIXES = {"WavePrefixSum(x)": "(WavePrefixSum(x) - (x))"}
ICD_FOLDERS = ("/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d")


def _icd() -> str | None:
    found = [path for folder in ICD_FOLDERS for path in sorted(glob.glob(f"{folder}/lvp_icd*.json"))]
    return found[0] if found else None


def missing() -> str:
    """What this machine lacks for the lavapipe runs, comma-separated ('' when nothing)."""
    lacking = [name for name, present in (
        ("glslangValidator", shutil.which("glslangValidator")),
        ("gcc", shutil.which("gcc")),
        ("Vulkan headers", os.path.exists("/usr/include/vulkan/vulkan.h")),
        ("libvulkan", ctypes.util.find_library("vulkan")),
        ("lavapipe ICD", _icd())) if not present]
    return ", ".join(lacking)


class Lavapipe:
    """vkrun built in ``scratch``, lavapipe on ``threads`` threads."""

    def __init__(self, scratch: Path, threads: int):
        self.scratch = scratch
        self.vkrun = scratch / "vkrun"
        subprocess.run(["gcc", "-O2", "-o", str(self.vkrun), str(HERE / "lavapipe" / "vkrun.c"), "-lvulkan"],
                       check=True, capture_output=True, text=True)
        self.env = dict(os.environ, VK_ICD_FILENAMES=_icd(), LP_NUM_THREADS=str(threads))

    def spirv(self, hlsl: str, entry: str = "main", defines: dict | None = None) -> tuple[Path, str]:
        """The SPIR-V of ``entry`` in ``kernels/hlsl``, and its entry point's name."""
        out = self.scratch / f"{Path(hlsl).stem}.{entry}.spv"
        flags = [f"-D{name}={value}" for name, value in {**GLSLANG_FIXES, **(defines or {})}.items()]
        subprocess.run(["glslangValidator", "-D", "-V", "--target-env", "vulkan1.1", "-S", "comp", "-e", entry,
                        "--hlsl-iomap", "--shift-texture-binding", str(TEXTURE_BASE), "--shift-uav-binding",
                        str(UAV_BASE), *flags, str(KERNELS / hlsl), "-o", str(out)],
                       check=True, capture_output=True, text=True)
        return out, entry

    def dispatch(self, shader: tuple[Path, str], groups, repeat: int, buffers: dict[str, tuple[str, int, np.ndarray]]):
        """Run ``shader`` (``spirv``'s answer) ``repeat`` times after a warm-up; ``buffers`` maps a name
        to (kind, binding, array) as vkrun takes them. Returns the times and the written buffers."""
        specs = []
        for name, (kind, binding, array) in buffers.items():
            path = self.scratch / f"{name}.bin"
            path.write_bytes(np.ascontiguousarray(array).tobytes())
            specs.append(f"{kind}:{binding}:{path}")
        command = [str(self.vkrun), str(shader[0]), shader[1], *map(str, groups), str(repeat), *specs]
        done = subprocess.run(command, check=True, capture_output=True, text=True, env=self.env)
        times = [float(line) for line in done.stdout.split()]
        written = {name: np.frombuffer((self.scratch / f"{name}.bin").read_bytes(), array.dtype).reshape(array.shape)
                   for name, (kind, _, array) in buffers.items() if kind in "wz"}
        return times, written


def _constants(*values: int) -> np.ndarray:
    return np.array(values, np.uint32)


def run_kernels(words: np.ndarray, matrix: np.ndarray, repeat: int, threads: int, scratch: Path) -> dict:
    """Times (per round) and results of the histogram, the exclusive scan and the transpose."""
    vk = Lavapipe(scratch, threads)
    results = {}

    groups = (-(-words.size // HISTOGRAM_WORDS_PER_GROUP), 1, 1)
    times, out = vk.dispatch(vk.spirv("histogram.hlsl"), groups, repeat, {
        "histogram_constants": ("u", 0, _constants(words.size)), "words": ("r", TEXTURE_BASE, words.reshape(-1, 4)),
        "bins": ("z", UAV_BASE, np.zeros(HISTOGRAM_BINS, np.uint32))})
    results["histogram"] = (times, out["bins"])

    results["scan"] = _scan(vk, words, repeat)

    height, width = matrix.shape
    groups = (-(-width // TRANSPOSE_TILE), -(-height // TRANSPOSE_TILE), 1)
    times, out = vk.dispatch(vk.spirv("transpose.hlsl"), groups, repeat, {
        "transpose_constants": ("u", 0, _constants(width, height)), "source": ("r", TEXTURE_BASE, matrix),
        "target": ("w", UAV_BASE, np.zeros((width, height), np.float32))})
    results["transpose"] = (times, out["target"])
    return results


def _scan(vk: Lavapipe, words: np.ndarray, repeat: int):
    """The two dispatches of scan.hlsl (reduce_tiles' last group scans the slot sums in place: at
    most one tile of them)."""
    tile = 256 * SCAN_ROWS
    vectors = words.reshape(-1, 4)
    tiles = -(-len(vectors) // tile)
    slots = tiles * SCAN_SLOTS_PER_TILE
    if tiles == 1 or slots > 4 * tile:
        raise ValueError("one tile, or more slot sums than one tile holds: not written for lavapipe")
    defines = {"ROWS": SCAN_ROWS}
    reduce_spv, scan_spv = vk.spirv("scan.hlsl", "reduce_tiles", defines), vk.spirv("scan.hlsl", "scan_tiles", defines)
    reduce_times, out = vk.dispatch(reduce_spv, (tiles, 1, 1), repeat, {
        "reduce_constants": ("u", 0, _constants(len(vectors))), "values": ("r", TEXTURE_BASE, vectors),
        "slotSums": ("w", UAV_BASE + 1, np.zeros(slots, np.uint32)),
        "tilesDone": ("w", UAV_BASE + 2, np.zeros(1, np.uint32))})  # 0 again after each dispatch
    if out["tilesDone"][0] != 0:
        raise RuntimeError(f"reduce_tiles left its counter at {out['tilesDone'][0]}, not 0")
    scan_times, out = vk.dispatch(scan_spv, (tiles, 1, 1), repeat, {
        "scan_constants": ("u", 0, _constants(len(vectors))), "values": ("r", TEXTURE_BASE, vectors),
        "slotOffsets": ("r", TEXTURE_BASE + 1, out["slotSums"]),
        "output": ("w", UAV_BASE, np.zeros_like(vectors))})
    times = [a + b for a, b in zip(reduce_times, scan_times)]
    return times, out["output"].reshape(-1)
