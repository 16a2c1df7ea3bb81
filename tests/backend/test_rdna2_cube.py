"""Cube sampling in the RDNA2 listing: the image unit takes a cube's coordinates already
projected (face coordinates over the major axis plus 1.5, and the face id, plus 8 x the rounded
slice in an array), so the listing computes them with ``v_cube{ma,sc,tc,id}_f32``, ``v_rcp_f32``
and two fmas before ``image_sample ... dim:SQ_RSRC_IMG_CUBE``, as RDNA drivers and LLVM's own
code do. The simulator's cube instructions are checked against the host JIT's D3D face
selection (``tests/backend/test_host_cube.py``'s reference)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

import shc
from shc.compiler.backend.rdna2.machine import MInst, VReg
from shc.compiler.backend.rdna2.simulate_narrow import HANDLERS

sys.path.insert(0, os.path.dirname(__file__))
from test_host_cube import cube_face  # noqa: E402

SOURCE = """
{kind}<float4> env : register(t0);
SamplerState s : register(s0);
StructuredBuffer<float{size}> directions : register(t1);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(64, 1, 1)]
void main(uint i : SV_DispatchThreadID) {{ o[i] = env.SampleLevel(s, directions[i], 0); }}
"""


def instructions(listing: str) -> list[str]:
    return [line.split(";")[0].strip() for line in listing.splitlines()
            if line.strip() and not line.lstrip().startswith(";") and not line.rstrip().endswith(":")]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("kind, size", [("TextureCube", 3), ("TextureCubeArray", 4)])
def test_the_listing_projects_the_direction_before_sampling(kind, size, wave):
    listing = instructions(shc.compile(SOURCE.format(kind=kind, size=size), wave_size=wave).listing)
    mnemonics = [line.split()[0] for line in listing]
    sample = mnemonics.index("image_sample_lz")
    first = mnemonics.index("v_cubema_f32")
    projection = mnemonics[first:sample]
    assert projection[:4] == ["v_cubema_f32", "v_cubesc_f32", "v_cubetc_f32", "v_cubeid_f32"]
    direction = [re.split(r"\s*,\s*", line.split(None, 1)[1])[1:] for line in listing[first:first + 4]]
    assert all(operands == direction[0] for operands in direction)  # each reads the same x, y, z
    ma = listing[first].split()[1].rstrip(",")
    assert "v_rcp_f32" in projection and any(line.endswith(f"|{ma}|") for line in listing[first:sample])
    fmas = [line for line in listing[first:sample] if line.startswith("v_fma_f32")]
    assert sum(line.endswith("0x3fc00000") for line in fmas) == 2  # sc/|ma| + 1.5, tc/|ma| + 1.5
    if kind == "TextureCubeArray":
        assert "v_rndne_f32" in projection and any("0x41000000" in line for line in fmas)  # face + 8 x slice
    else:
        assert "v_rndne_f32" not in projection and len(fmas) == 2
    assert "dim:SQ_RSRC_IMG_CUBE" in listing[sample]
    address = re.match(r"image_sample_lz\s+v\[\d+:\d+\],\s*(\[[^\]]*\]|v\[\d+:\d+\])", listing[sample]).group(1)
    if address.startswith("["):  # non-consecutive registers (NSA)
        count = len(address.split(","))
    else:
        low, high = map(int, re.findall(r"\d+", address))
        count = high - low + 1
    assert count == 3  # s, t, face: no raw direction, no separate slice


class Lanes:
    """Just enough of the simulator's machine for one VALU instruction on named registers."""

    def __init__(self, **registers):
        self.registers = {name: np.asarray(values, np.float32).view(np.uint32) for name, values in registers.items()}

    def vector(self, operand):
        return self.registers[operand.name]

    def write_v(self, operand, values):
        self.registers[operand.name] = values


def cube_instruction(part: str, direction: np.ndarray, modifiers=None) -> np.ndarray:
    lanes = Lanes(x=direction[:, 0], y=direction[:, 1], z=direction[:, 2])
    inst = MInst(f"v_cube{part}_f32", [VReg("v", 1, name="d")], [VReg("v", 1, name=n) for n in "xyz"])
    HANDLERS[inst.mnemonic](lanes, inst)
    return lanes.registers["d"].view(np.float32)


def test_the_simulated_cube_instructions_pick_the_host_jits_face_and_coordinates():
    rng = np.random.default_rng(7)
    direction = rng.uniform(-2, 2, (4000, 3)).astype(np.float32)
    ties = np.array([[1, 1, 1], [-1, 1, -1], [1, -1, 0], [-2, 2, 1], [0.5, 0, -0.5], [-0.0, 3, 0]], np.float32)
    direction = np.concatenate([direction, ties])
    face, uv = cube_face(direction)
    ma, sc, tc, cube_id = (cube_instruction(part, direction) for part in ("ma", "sc", "tc", "id"))
    assert np.array_equal(cube_id, face.astype(np.float32))
    major = np.max(np.abs(direction.astype(np.float64)), axis=1)
    assert np.array_equal(np.abs(ma.astype(np.float64)), 2 * major)
    # the listing's s = sc / |ma| + 1.5 lands on the host JIT's u + 1 (within the roundings)
    for coordinate, expected in ((sc, uv[:, 0]), (tc, uv[:, 1])):
        assert np.allclose(coordinate.astype(np.float64) / np.abs(ma) + 1.5, expected + 1, atol=1e-6)


@pytest.mark.skipif(shutil.which("llvm-mc") is None, reason="llvm-mc is not installed")
@pytest.mark.parametrize("kind, size", [("TextureCube", 3), ("TextureCubeArray", 4)])
def test_the_cube_listing_assembles(kind, size):
    listing = shc.compile(SOURCE.format(kind=kind, size=size)).listing
    result = subprocess.run(["llvm-mc", "-arch=amdgcn", "-mcpu=gfx1030", "-mattr=+wavefrontsize32"],
                            input="\n".join(instructions(listing)), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr[:1500]


@pytest.mark.parametrize("kind, size", [("TextureCube", 3), ("TextureCubeArray", 4)])
def test_the_llvm_cross_check_projects_the_same_way(kind, size):
    """The LLVM module shc hands LLVM's AMDGPU backend (``shc regs``' cross-check) projects the
    direction with LLVM's cube intrinsics: LLVM's code has the same steps as shc's listing."""
    from shc.compiler.backend.amdgcn.check import cross_check
    from shc.compiler.diagnostics import Diagnostics
    from shc.compiler.pipeline import Options, compile_source

    module = compile_source(SOURCE.format(kind=kind, size=size), "cube.hlsl", Options(), Diagnostics())
    result = cross_check(module)
    assert result.ok, result
    for mnemonic in ("v_cubema_f32", "v_cubesc_f32", "v_cubetc_f32", "v_cubeid_f32", "v_rcp_f32", "0x3fc00000",
                     "dim:SQ_RSRC_IMG_CUBE"):
        assert mnemonic in result.isa
    assert ("v_rndne_f32" in result.isa) == (kind == "TextureCubeArray")
