"""`shc regs`: the JSON shape the issue fixes, hand-countable figures, the occupancy formula,
hot lines, the LLVM cross-check, and [WaveSize(n)] reporting one wave size."""

import json
import os
import sys
from pathlib import Path

from shc.compiler.machine.rdna2 import next_step_vgprs, occupancy, vgprs_allocated

sys.path.insert(0, os.path.dirname(__file__))
from cli_runner import shc  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# v0 holds the thread id; three float4 loads are live together at the sum: 12 more VGPRs.
THREE_LOADS = """
StructuredBuffer<float4> a : register(t0);
StructuredBuffer<float4> b : register(t1);
StructuredBuffer<float4> c : register(t2);
RWStructuredBuffer<float4> o : register(u0);
groupshared float tile[1024];
[numthreads(128, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float4 x = a[i];
    float4 y = b[i];
    float4 z = c[i];
    tile[i] = x.w;
    o[i] = x * y + z;
}
"""

WAVE64_ONLY = """
RWStructuredBuffer<uint> o : register(u0);
[WaveSize(64)]
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex) { o[i] = WaveActiveSum(i); }
"""


def regs_json(tmp_path, source, *args):
    path = tmp_path / "k.hlsl"
    path.write_text(source)
    done = shc("regs", path, "--json", *args, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), str(path)


def test_json_has_exactly_the_issue_shape_and_consistent_figures(tmp_path):
    report, path = regs_json(tmp_path, THREE_LOADS, "--lines", "2")
    (kernel,) = report["kernels"]
    assert set(kernel) == {"entry", "file", "numthreads", "waves"}
    assert kernel["entry"] == "main" and kernel["numthreads"] == [128, 1, 1]
    assert set(kernel["waves"]) == {"32", "64"}
    for size, wave in kernel["waves"].items():
        assert set(wave) == {"vgprs", "vgprs_allocated", "sgprs", "lds_bytes", "scratch_bytes", "occupancy",
                             "limiter", "next_step_vgprs", "hot_lines", "llvm"}
        wave_size = int(size)
        # the thread id and the three float4 values alive at the multiply-add
        assert wave["vgprs"] >= 13
        assert wave["vgprs_allocated"] == vgprs_allocated(wave["vgprs"], wave_size)
        assert wave["lds_bytes"] == 4096 and wave["scratch_bytes"] == 0
        expected = occupancy(wave["vgprs"], wave["sgprs"], wave["lds_bytes"], 128, wave_size)
        assert (wave["occupancy"], wave["limiter"]) == (expected.waves_per_simd, expected.limiter)
        assert wave["next_step_vgprs"] == next_step_vgprs(wave["vgprs"], wave_size)
        hot = wave["hot_lines"]
        assert 1 <= len(hot) <= 2
        # issue #14 added the inline chain (empty: these lines are in the entry itself)
        assert set(hot[0]) == {"file", "line", "live_vgprs", "values", "call_chain", "call_sites"}
        assert hot[0]["call_chain"] == [] and hot[0]["call_sites"] == []
        assert hot[0]["line"] in (11, 12, 13) and hot[0]["live_vgprs"] >= 12  # x, y and z all alive
        assert set(wave["llvm"]) == {"vgprs", "sgprs", "occupancy"}, wave["llvm"]
        assert wave["llvm"]["vgprs"] > 0


def test_wave_size_attribute_reports_only_that_wave_size(tmp_path):
    report, _ = regs_json(tmp_path, WAVE64_ONLY, "--no-llvm")
    (kernel,) = report["kernels"]
    assert list(kernel["waves"]) == ["64"]
    assert kernel["waves"]["64"]["llvm"] is None


def test_the_occupancy_pair_shows_the_step(tmp_path):
    heavy = shc("regs", "samples/occupancy_heavy.hlsl", "--json", "--no-llvm", cwd=ROOT)
    light = shc("regs", "samples/occupancy_light.hlsl", "--json", "--no-llvm", cwd=ROOT)
    heavy64 = json.loads(heavy.stdout)["kernels"][0]["waves"]["64"]
    light64 = json.loads(light.stdout)["kernels"][0]["waves"]["64"]
    assert heavy64["vgprs"] > light64["vgprs"]
    assert heavy64["limiter"] == "vgprs" and heavy64["occupancy"] < light64["occupancy"] == 16


def test_llvm_demand_adds_the_spill_free_minimum_next_to_the_default_count(tmp_path):
    """LLVM's default schedule may spend more VGPRs than the kernel needs; ``--llvm-demand``
    searches the fewest it fits in without spilling: never above the default count, and more
    than one float4 (the product needs two loaded operands at once)."""
    report, path = regs_json(tmp_path, THREE_LOADS, "--llvm-demand")
    for wave in report["kernels"][0]["waves"].values():
        llvm = wave["llvm"]
        assert set(llvm) == {"vgprs", "sgprs", "occupancy", "demand_vgprs"}
        assert 8 <= llvm["demand_vgprs"] <= llvm["vgprs"]
    table = shc("regs", path, "--llvm-demand", cwd=ROOT)
    assert "LLVM VGPR demand (no spills)" in table.stdout
    plain = shc("regs", path, cwd=ROOT)
    assert "LLVM VGPR demand" not in plain.stdout


def test_hot_lines_name_the_source_variables_alive_there():
    done = shc("regs", "samples/occupancy_heavy.hlsl", "--json", "--no-llvm", "--lines", "1", cwd=ROOT)
    hot = json.loads(done.stdout)["kernels"][0]["waves"]["64"]["hot_lines"][0]
    names = [value.split(" (")[0] for value in hot["values"]]
    assert "i" in names  # the element index, alive until the store
    assert sum(name.startswith("taps[") for name in names) >= 8  # register array elements by index
    assert all(value.endswith(")") or value.startswith("%") for value in hot["values"])  # IR name kept
