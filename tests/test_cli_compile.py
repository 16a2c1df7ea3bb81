"""`shc compile` as a user types it: --emit ir, --print-after(-all), -p on IR files, --wave-size."""

import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))
import cli_runner  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def shc(*args, cwd=ROOT):
    return cli_runner.shc(*args, cwd=cwd)


def test_emit_ir_prints_bindings_groupshared_and_a_verified_function():
    result = shc("compile", "samples/prefix_sum.hlsl", "--emit", "ir", "--verify")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "resource @output RWStructuredBuffer<uint> u0 space0" in lines
    assert "groupshared @waveTotals uint[64] offset 0 size 256" in lines
    assert any(line.startswith("func @main numthreads(256, 1, 1) wave32 {") for line in lines)
    # WavePrefixSum became a DPP row_shr ladder folded into adds
    assert any('dpp="row_shr:1"' in line for line in lines)
    assert not any("wave_prefix" in line for line in lines)


def test_print_after_names_each_pass_in_pipeline_order():
    result = shc("compile", "samples/compaction.hlsl", "--print-after-all")
    headers = [line for line in result.stdout.splitlines() if line.startswith("; *** IR after")]
    names = [line.split("after ")[1].split(" ***")[0] for line in headers]
    assert names[:3] == ["lower", "constant-fold", "simplify"]
    assert names[-1] == "liveness"
    assert "lower-wave-ops" in names and "waterfall" in names
    only = shc("compile", "samples/compaction.hlsl", "--print-after", "lower-wave-ops")
    assert [l for l in only.stdout.splitlines() if l.startswith("; ***")] == ["; *** IR after lower-wave-ops ***"]


def test_wave_size_option_and_wave_size_attribute():
    wave64 = shc("compile", "samples/prefix_sum.hlsl", "--wave-size", "64")
    assert "wave64 {" in wave64.stdout
    # downsample_shuffle.hlsl says [WaveSize(64)]: it wins over the option
    forced = shc("compile", "samples/downsample_shuffle.hlsl", "--wave-size", "32")
    assert "wave64 {" in forced.stdout
    bad = shc("compile", "samples/prefix_sum.hlsl", "--wave-size", "48")
    assert bad.returncode == 1 and "--wave-size must be 32 or 64" in bad.stderr


def test_passes_on_an_ir_file(tmp_path):
    source = tmp_path / "k.ir"
    source.write_text(
        "func @main numthreads(64, 1, 1) wave32 {\n^entry:\n"
        "  %0 = const uint {value=6}\n  %1 = const uint {value=7}\n  %2 = mul uint %0, %1\n"
        "  %3 = thread_input uint {which=\"group_index\"}\n  %4 = add uint %3, %2\n"
        "  buffer_store %3, %4 {resource=\"out\"}\n  ret\n}\n")
    result = shc("compile", "-p", "constant-fold,dce", str(source))
    assert result.returncode == 0, result.stderr
    assert "%0 = const uint {value=42}" in result.stdout
    assert "mul" not in result.stdout
    unknown = shc("compile", "-p", "nope", str(source))
    assert unknown.returncode == 1
    assert "unknown pass 'nope'" in unknown.stderr and "constant-fold" in unknown.stderr
    broken = tmp_path / "broken.ir"
    broken.write_text("func @main numthreads(1, 1, 1) wave32 {\n^entry:\n  %0 = add uint %9, %9\n  ret\n}\n")
    result = shc("compile", "-p", "dce", str(broken))
    assert result.returncode == 1 and "invalid IR: line 3: use of undefined value %9" in result.stderr


def test_a_barrier_in_divergent_flow_is_a_compile_error(tmp_path):
    source = tmp_path / "bad.hlsl"
    source.write_text(
        "RWStructuredBuffer<uint> o;\n"
        "[numthreads(64, 1, 1)]\n"
        "void main(uint i : SV_GroupIndex) {\n"
        "    if (i < 7) {\n"
        "        GroupMemoryBarrierWithGroupSync();\n"
        "    }\n"
        "    o[i] = i;\n"
        "}\n")
    result = shc("compile", str(source))
    assert result.returncode == 1
    assert f"{source}:5:9: error: barrier in divergent control flow" in result.stderr
    assert "        GroupMemoryBarrierWithGroupSync();\n        ^" in result.stderr
