"""`shc regs` hot lines: the calls an inlined line came through, and temporaries named by the
source expression they hold."""

import json
import os
import sys
import textwrap
from pathlib import Path

from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.printer import print_module
from shc.compiler.pipeline import Options, compile_source

sys.path.insert(0, os.path.dirname(__file__))
from cli_runner import shc  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

NESTED = textwrap.dedent("""\
    StructuredBuffer<float4> a : register(t0);
    RWStructuredBuffer<float4> o : register(u0);
    float4 scale(float4 v, float k) { return v * k + a[0]; }
    float4 twice(float4 v, uint i) { return scale(v, 2.0) * a[i + 1]; }
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupIndex) {
        float4 x = a[i];
        o[i] = twice(x, i) + x * a[i + 2];
    }
    """)


def regs(tmp_path, *args):
    path = tmp_path / "nested.hlsl"
    path.write_text(NESTED)
    done = shc("regs", path, "--no-llvm", "--lines", "8", *args, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_json_hot_lines_carry_the_inline_chain_and_its_call_sites(tmp_path):
    kernel = json.loads(regs(tmp_path, "--json"))["kernels"][0]
    for wave in kernel["waves"].values():
        by_line = {hot["line"]: hot for hot in wave["hot_lines"]}
        assert by_line[3]["call_chain"] == ["scale", "twice"]  # scale's line, inlined into twice, into main
        assert by_line[3]["call_sites"] == [f"{kernel['file']}:4", f"{kernel['file']}:8"]
        assert by_line[4]["call_chain"] == ["twice"] and by_line[4]["call_sites"] == [f"{kernel['file']}:8"]
        assert by_line[8]["call_chain"] == [] and by_line[7]["call_sites"] == []


def test_the_table_names_the_chain_under_an_inlined_line(tmp_path):
    text = regs(tmp_path)
    lines = text.splitlines()
    place = next(n for n, line in enumerate(lines) if line.strip().startswith(f"{tmp_path}/nested.hlsl:3 "))
    assert lines[place + 1].strip() == "in scale <- twice <- main"
    entry = next(n for n, line in enumerate(lines) if line.strip().startswith(f"{tmp_path}/nested.hlsl:8 "))
    assert not lines[entry + 1].strip().startswith("in ")


def test_temporaries_are_named_by_the_expression_they_hold(tmp_path):
    kernel = json.loads(regs(tmp_path, "--json"))["kernels"][0]
    by_line = {hot["line"]: hot for hot in kernel["waves"]["32"]["hot_lines"]}
    values = by_line[4]["values"]  # in twice: scale's result and the load it multiplies, and i + 1
    assert any(value.startswith("v * k + a[0] (%") for value in values), values
    assert any(value.startswith("a[i + 1] (%") for value in values), values
    assert "x (%" in " ".join(values)  # a variable keeps its name
    calls = by_line[8]["values"]
    assert any(value.startswith("scale(...) * a[i + 1] (%") for value in calls), calls


def test_the_ir_text_is_unchanged_by_the_chain():
    module = compile_source(NESTED, "nested.hlsl", Options(), Diagnostics())
    text = print_module(module)
    assert "scale" not in text and "twice" not in text
    chains = {tuple(site.function for site in inst.coord.inlined_at) for inst in module.function.instructions()}
    assert {(), ("twice",), ("scale", "twice")} <= chains
