"""AST to IR on the samples: every one lowers to valid structured SSA and compiles with the
verifier between passes; SPD variants; what the IR cannot express is one clear error."""

import os
import sys

import numpy as np
import pytest

from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.lower.from_ast import lower
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.ir.ops import Op
from shc.compiler.ir.printer import print_module
from shc.compiler.ir.reader import read_module
from shc.compiler.pipeline import Options, check_source, compile_file

sys.path.insert(0, os.path.dirname(__file__))
from from_ast_helpers import ROOT, SAMPLES, lower_source  # noqa: E402


# ------------------------------------------------------------------- samples


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.name)
def test_every_sample_lowers_to_valid_structured_ssa(sample):
    module = lower_source(sample.read_text(), filename=str(sample))
    assert module.function.blocks and module.bindings
    assert all(inst.coord.line > 0 for inst in module.function.instructions())  # every line is known
    text = print_module(module)
    assert print_module(read_module(text)) == text  # the text form reads back


@pytest.mark.parametrize("wave_size", [32, 64])
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.name)
def test_every_sample_compiles_with_the_verifier_between_passes(sample, wave_size):
    diagnostics = Diagnostics()
    module = compile_file(str(sample), Options(wave_size=wave_size, verify=True), diagnostics)
    assert diagnostics.error_count == 0 and "liveness" in module.analyses
    assert not [item for item in diagnostics.items if "unroll" in item.message]  # every [unroll] honoured


SPD_VARIANTS = [{}, {"SPD_NO_WAVE_OPERATIONS": "1"}, {"A_HALF": "1"},
                {"A_HALF": "1", "SPD_NO_WAVE_OPERATIONS": "1"}, {"SPD_LINEAR_SAMPLER": "1"}]


@pytest.mark.parametrize("defines", SPD_VARIANTS, ids=lambda d: "+".join(d) or "default")
def test_spd_variants_lower_without_scratch_or_errors(defines):
    path = ROOT / "samples" / "spd.hlsl"
    module = lower_source(path.read_text(), defines, filename=str(path))
    assert module.scratch_bytes == 0  # every local lives in registers
    ops = {inst.op for inst in module.function.instructions()}
    assert Op.BARRIER in ops and Op.BUFFER_ATOMIC in ops
    assert (Op.QUAD_READ_LANE_AT in ops) == ("SPD_NO_WAVE_OPERATIONS" not in defines)
    text = print_module(module, show_coords=False)
    if "A_HALF" in defines:  # the packed path computes in 16 bits
        assert " half4 " in text and "groupshared @spdIntermediateRG half2[16][16]" in text
    coherent = [binding for binding in module.bindings if binding.globally_coherent]
    assert {binding.name for binding in coherent} == {"spdGlobalAtomic", "imgDst6"}
    assert next(b for b in module.bindings if b.name == "imgDst").count == 12


def test_unbounded_resource_array_in_another_space():
    module = lower_source((ROOT / "samples" / "texture_array_nonuniform.hlsl").read_text())
    textures = next(binding for binding in module.bindings if binding.name == "textures")
    assert (textures.register, textures.space, textures.count) == ("t0", 1, None)
    sample = next(inst for inst in module.function.instructions() if inst.op is Op.TEXTURE_SAMPLE
                  and inst.operands[0].op is Op.NON_UNIFORM)
    assert sample.attrs == {"resource": "textures", "sampler": "linearSampler"}


def test_wave_size_attribute_overrides_the_option():
    module = lower_source((ROOT / "samples" / "downsample_shuffle.hlsl").read_text(), wave_size=32)
    assert module.function.wave_size == 64


# ------------------------------------------------------------------- errors


@pytest.mark.parametrize("statement, message", [
    ("uint i = result[1]; result[0] = tex.SampleLevel(samp, float2(0, 0), 0, int2(i, 0)).x;",
     "3:37: error: a non-constant texel offset"),
    ("result[0] = cube.SampleGrad(samp, float3(0, 0, 1), float3(1, 0, 0), float3(0, 1, 0)).x;",
     "3:18: error: 'SampleGrad' on a TextureCube"),
    ("for (;;) {}", "3:1: error: a loop that never exits"),
])
def test_what_the_ir_cannot_express_is_one_clear_error(statement, message):
    source = ("RWStructuredBuffer<float> result; Texture2D<float4> tex; SamplerState samp; TextureCube<float4> cube;\n"
              "[numthreads(1, 1, 1)] void main() {\n" + statement + "\n}\n")
    diagnostics = Diagnostics()
    program = check_source(source, "kernel.hlsl", Options(), diagnostics)
    lower(program, 32, diagnostics)
    assert [item.severity for item in diagnostics.items] == ["error"]
    rendered = diagnostics.items[0].format()
    assert rendered.startswith("kernel.hlsl:" + message) and rendered.endswith("is not supported by shc's IR yet")


# --------------------------------------------------------- run on the interpreter


@pytest.mark.parametrize("wave_size", [32, 64])
def test_prefix_sum_sample_runs_wave_by_wave(wave_size):
    """Each wave only reads the totals of the waves before it, so running the group's waves
    in order with the LDS carried over is a faithful schedule."""
    module = lower_source((ROOT / "samples" / "prefix_sum.hlsl").read_text(), wave_size=wave_size)
    data = np.random.default_rng(wave_size).integers(0, 1000, 256).astype(np.uint32)
    count = 200
    buffers = {"input": data, "output": np.zeros(256, np.uint32), "blockSums": np.zeros(1, np.uint32)}
    lds = np.zeros(module.lds_bytes, np.uint8)
    for wave in range(256 // wave_size):
        lanes = np.arange(wave_size) + wave * wave_size
        state = run_wave(module, wave_size, lane_inputs={"group_index": lanes}, buffers=buffers,
                         cbuffers={"scanConstants": {0: count}}, lds=lds)
        buffers, lds = state.buffers, state.lds
    values = np.where(np.arange(256) < count, data, 0)
    exclusive = np.concatenate([[0], np.cumsum(values)[:-1]])
    assert buffers["output"][:count].tolist() == exclusive[:count].tolist()
    assert not buffers["output"][count:].any()
    assert buffers["blockSums"][0] == values.sum()
