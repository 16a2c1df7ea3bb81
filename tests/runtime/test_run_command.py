"""`shc run` as a user types it: samplers, outputs created from a shape, every kind of cbuffer field
through --set, images in and out, and its messages in the command line's words."""

import io
import os
import sys

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from shc.compiler import cli
from shc.compiler.cli.progress import Progress
from shc.runtime import command
from shc.runtime.dispatch import DispatchTimeout

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
from cli_runner import shc  # noqa: E402

# src is 8 x 8. With offset (0.5, 0) a linear sampler reads halfway between texels x and x + 1.
SAMPLE = """
Texture2D<float4> src : register(t0);
SamplerState smp : register(s0);
RWTexture2D<float4> dst : register(u0);

struct Tint { float3 colour; float strength; };
cbuffer Params : register(b0)
{
    float2 offset;
    Tint tint;
    float2x2 mixer;
    float weights[3];
};

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float2 uv = (float2(id.xy) + 0.5 + offset) / 8.0;
    float4 c = src.SampleLevel(smp, uv, 0);
    float2 m = mul(mixer, c.xy);
    dst[id.xy] = float4(m, c.z * weights[id.x % 3] + tint.colour.z * tint.strength, c.w);
}
"""

BUFFER = """
RWStructuredBuffer<float4> o : register(u0);
[numthreads(64, 1, 1)]
void main(uint i : SV_DispatchThreadID) { o[i] = float4(i, 2 * i, 3 * i, 4 * i); }
"""

RUNAWAY = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64, 1, 1)]
void main(uint i : SV_DispatchThreadID) { uint n = 0; while (o[0] == 0) { n++; } o[i] = n; }
"""


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")  # one kernel cache for the module: each kernel compiles once


def shc_run(*args, cwd, cache):
    return shc("run", *args, cwd=cwd, env={"SHC_CACHE_DIR": str(cache)})


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "sample.hlsl").write_text(SAMPLE)
    pixels = (np.arange(8 * 8 * 4).reshape(8, 8, 4) * 3 % 256).astype(np.uint8)
    Image.fromarray(pixels, "RGBA").save(tmp_path / "src.png")
    np.save(tmp_path / "src.npy", pixels.astype(np.float32) / 255)
    return tmp_path


def expected(source: np.ndarray, neighbour, mixer, weights, tint_z, strength) -> np.ndarray:
    """The kernel in NumPy: a linear read halfway to x + 1 (``neighbour`` gives that texel)."""
    c = (source + neighbour) / 2
    out = np.empty_like(c)
    out[..., :2] = c[..., :2] @ np.asarray(mixer, np.float32).T
    out[..., 2] = c[..., 2] * np.asarray(weights, np.float32)[np.arange(8) % 3][None, :] + tint_z * strength
    out[..., 3] = c[..., 3]
    return out


CONSTANTS = ["--set", "offset=0.5,0", "--set", "mixer=1,2,0,1", "--set", "weights=0.25,0.5,2",
             "--set", "tint.strength=0.5", "--set", "tint.colour[2]=0.75"]


@pytest.mark.parametrize("address", ["clamp", "wrap", "border"])
def test_sampler_created_output_and_constants_of_every_shape(folder, cache, address):
    sampler = f"linear,{address}" + (",0,0,1,1" if address == "border" else "")
    run = shc_run("sample.hlsl", "--input", "src=src.png", "--sampler", f"smp={sampler}",
                  "--output", "dst=8x8x4:float32", "--save", "dst=out.npy", *CONSTANTS, cwd=folder, cache=cache)
    assert run.returncode == 0, run.stderr
    source = np.asarray(Image.open(folder / "src.png")).astype(np.float32) / 255
    neighbour = {"clamp": np.concatenate([source[:, 1:], source[:, 7:]], axis=1),
                 "wrap": np.roll(source, -1, axis=1),
                 "border": np.concatenate([source[:, 1:], np.broadcast_to(np.float32([0, 0, 1, 1]), (8, 1, 4))],
                                          axis=1)}[address]
    want = expected(source, neighbour, [[1, 2], [0, 1]], [0.25, 0.5, 2], 0.75, 0.5)
    np.testing.assert_allclose(np.load(folder / "out.npy"), want, rtol=1e-5, atol=1e-5)


def test_a_whole_struct_and_a_matrix_row_by_row_and_png_outputs(folder, cache):
    run = shc_run("sample.hlsl", "--input", "src=src.npy", "--sampler", "smp=linear,clamp",
                  "--output", "dst=8x8x4", "--save", "dst=out.png", "--save", "dst=out.npy",
                  "--set", "offset=0.5,0", "--set", "tint=0,0,0.75,0.5", "--set", "mixer=0,1,1,0",
                  "--set", "weights=1,1,1", cwd=folder, cache=cache)
    assert run.returncode == 0, run.stderr
    result = np.load(folder / "out.npy")
    source = np.load(folder / "src.npy")
    want = expected(source, np.concatenate([source[:, 1:], source[:, 7:]], axis=1), [[0, 1], [1, 0]], [1, 1, 1],
                    0.75, 0.5)
    np.testing.assert_allclose(result, want, rtol=1e-5, atol=1e-5)
    picture = Image.open(folder / "out.png")
    assert (picture.mode, picture.size) == ("RGBA", (8, 8))
    assert np.array_equal(np.asarray(picture), np.rint(np.clip(result, 0, 1) * 255).astype(np.uint8))


def test_a_buffer_created_from_its_element_count(tmp_path, cache):
    (tmp_path / "b.hlsl").write_text(BUFFER)
    run = shc_run("b.hlsl", "--groups", "2", "--output", "o=128", "--save", "o=o.npy", cwd=tmp_path, cache=cache)
    assert run.returncode == 0, run.stderr
    i = np.arange(128, dtype=np.float32)
    assert np.array_equal(np.load(tmp_path / "o.npy"), np.stack([i, 2 * i, 3 * i, 4 * i], axis=1))
    png = shc_run("b.hlsl", "--output", "o=64", "--save", "o=o.png", cwd=tmp_path, cache=cache)
    assert png.returncode == 1
    assert png.stderr == ("shc: error: cannot save o=o.png: a PNG holds a 2-D texture, and 'o' is a "
                          "RWStructuredBuffer (save it as .npy)\n")


NESTED = """
struct Light { float3 colour; uint on; };
cbuffer Scene : register(b0)
{
    Light lights[2];
    float3x2 m;
    bool flag;
    int4 v;
};
RWStructuredBuffer<float> o : register(u0);
[numthreads(1, 1, 1)]
void main()
{
    o[0] = lights[0].colour.x; o[1] = lights[1].colour.y; o[2] = lights[1].on; o[3] = lights[0].on;
    o[4] = m[0][1]; o[5] = m[2][0]; o[6] = flag ? 1 : 0; o[7] = v.w;
}
"""


@pytest.mark.parametrize("sets, want", [
    (["lights=1,2,3,4,5,6,7,8", "m=1,2,3,4,5,6", "flag=true", "v=1,2,3,-4"], [1, 6, 8, 4, 2, 5, 1, -4]),
    (["lights[1].colour=0,9,0", "lights[1].on=0x10", "m[2]=7,8", "flag=false", "v[3]=010"],
     [0, 9, 16, 0, 0, 7, 0, 10]),
])
def test_set_reaches_every_part_of_nested_fields(tmp_path, cache, monkeypatch, sets, want):
    monkeypatch.setenv("SHC_CACHE_DIR", str(cache))
    (tmp_path / "nested.hlsl").write_text(NESTED)
    command.run(str(tmp_path / "nested.hlsl"), "1", None, ["o=8"], sets, "main", {}, [], 32, 10.0, 1,
                saves=[f"o={tmp_path / 'o.npy'}"])
    assert np.load(tmp_path / "o.npy").tolist() == want


@pytest.mark.parametrize("args, message", [
    ((), "missing sampler 'smp' (SamplerState at s0): give it with --sampler smp=FILTER,ADDRESS "
         "(point or linear; clamp, wrap, mirror or border)"),
    (("--sampler", "smp=bilinear"), "--sampler smp=bilinear: expected FILTER,ADDRESS[,R,G,B,A] with FILTER point "
                                    "or linear and ADDRESS clamp, wrap, mirror, border"),
    (("--sampler", "smp=linear,clamp,1,1,1,1"),
     "--sampler smp=linear,clamp,1,1,1,1: a border colour is four numbers (R,G,B,A) after 'border'"),
    (("--sampler", "smp=linear", "--set", "tint.color=1"),
     "--set tint.color: struct Tint has no member 'color' (its members: colour, strength)"),
    (("--sampler", "smp=linear", "--set", "mixer=1,2"), "--set mixer: float2x2 takes 4 numbers (row by row), got 2"),
    (("--sampler", "smp=linear", "--set", "weights[3]=1"), "--set weights[3]: index 3 is outside float[3] (0..2)"),
    (("--sampler", "smp=linear", "--set", "scale=1"),
     "--set scale: the kernel has no constant named 'scale' (its constants: mixer, offset, tint, weights)"),
    (("--sampler", "smp=linear", "--set", "offset=a,b"), "--set offset: expected numbers separated by commas, not 'a,b'"),
    (("--sampler", "smp=linear"), "missing constant 'offset' (float2, in cbuffer 'Params'): give it with "
                                  "--set offset=VALUE"),
    (("--sampler", "smp=linear", *CONSTANTS, "--output", "dst=8x8x4:complex7"),
     "--output dst=8x8x4:complex7: unknown dtype 'complex7' (float32, float16, uint8, uint32, int32, ...)"),
    (("--sampler", "smp=linear", *CONSTANTS, "--save", "dst=x.npy"),
     "--save dst=x.npy: 'dst' has no data to save: give it with --input or --output"),
    (("--sampler", "smp=linear", *CONSTANTS, "--output", "dst=out.npy"),
     "--output dst: give its initial contents with --input dst=FILE, or create it with --output dst=DIMS[:DTYPE]"),
])
def test_messages_speak_of_options(folder, cache, monkeypatch, args, message):
    monkeypatch.chdir(folder)
    monkeypatch.setenv("SHC_CACHE_DIR", str(cache))
    output = [] if any(str(arg).startswith("dst=") for arg in args) else ["--output", "dst=8x8x4"]
    result = CliRunner().invoke(cli.app, ["run", "sample.hlsl", "--input", "src=src.npy", *output, *args])
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"shc: error: {message}\n")


def test_a_runaway_kernel_names_the_timeout_option_and_progress_hears_the_groups(tmp_path):
    (tmp_path / "loop.hlsl").write_text(RUNAWAY)

    class Heard:
        calls = []

        def update(self, **values):
            self.calls.append(values)

    heard = Heard()
    with pytest.raises(DispatchTimeout) as stopped:
        command.run(str(tmp_path / "loop.hlsl"), "4", None, ["o=256"], None, "main", {}, [], 32, 0.6, 1,
                    progress=heard)
    assert str(stopped.value) == ("the kernel 'main' ran longer than --timeout 0.6 s and was stopped (a runaway "
                                  "loop? allow more with --timeout SECONDS, or --timeout 0 for no limit)")
    assert heard.calls and all(call["total"] == 4 and 0 <= call["completed"] <= 4 for call in heard.calls)


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_draws_on_a_terminal_after_its_delay_only(monkeypatch):
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with Progress("waiting", delay=3600) as progress:
        progress.update(completed=1, total=2, description="dispatching groups")
    assert screen.getvalue() == ""
    with Progress("compiling", total=3) as progress:
        progress.advance()
    assert "compiling" in screen.getvalue()
    with Progress("quiet", quiet=True) as progress:
        progress.advance()
    assert "quiet" not in screen.getvalue()
