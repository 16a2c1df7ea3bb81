"""Register-pressure scheduling: only where VGPRs cost a wave, within memory order, same results."""

from pathlib import Path
from textwrap import dedent

import numpy as np

from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.ir.printer import print_module
from shc.compiler.ir.reader import read_module
from shc.compiler.passes.liveness import Liveness
from shc.compiler.passes.liveness import analyze, fresh_uniformity, reanalyze
from shc.compiler.passes.schedule import ALLOCATION_SLACK, Schedule, _predecessors, schedule_block
from shc.compiler.pipeline import Options, check_source, lower_program, middle_end_passes, run_passes

from shc.compiler.machine.rdna2 import occupancy

ROOT = Path(__file__).resolve().parents[2]


def taps_kernel(taps: int, wave: int = 32) -> str:
    """``taps`` float4 loads first, then a sum and a max over all of them: every tap stays
    live until the max reaches it, unless the chains are interleaved with the loads."""
    lines = [
        "resource @src StructuredBuffer<float4> t0 space0",
        "resource @out RWStructuredBuffer<float4> u0 space0",
        f"func @main numthreads(64, 1, 1) wave{wave} {{",
        "^entry:",
        '  %i = thread_input uint {which="group_index"}',
    ]
    for k in range(taps):
        lines.append(f"  %k{k} = const uint {{value={k}}}")
        lines.append(f"  %a{k} = add uint %i, %k{k}")
        lines.append(f'  %t{k} = buffer_load float4 %a{k} {{resource="src"}}')
    lines.append("  %s1 = add float4 %t0, %t1")
    for k in range(2, taps):
        lines.append(f"  %s{k} = add float4 %s{k - 1}, %t{k}")
    lines.append("  %m1 = max float4 %t0, %t1")
    for k in range(2, taps):
        lines.append(f"  %m{k} = max float4 %m{k - 1}, %t{k}")
    lines.append(f"  %r = mul float4 %s{taps - 1}, %m{taps - 1}")
    lines.append('  buffer_store %i, %r {resource="out"}')
    lines.append("  ret")
    lines.append("}")
    return "\n".join(lines) + "\n"


def scheduled(text: str):
    module = read_module(text)
    Liveness().run(module)
    before = module.analyses["liveness"].vgprs
    Schedule().run(module)
    Liveness().run(module)
    return module, before, module.analyses["liveness"].vgprs


def waves(vgprs: int, wave: int = 32) -> int:
    return occupancy(vgprs, 0, 0, 64, wave).waves_per_simd


def test_a_kernel_whose_vgprs_cost_a_wave_is_interleaved_for_the_next_step():
    module, before, after = scheduled(taps_kernel(20))
    assert before > 80 and waves(before) == 10
    assert after <= 80 - ALLOCATION_SLACK and waves(after + ALLOCATION_SLACK) > 10
    order = [inst.op.value for inst in module.function.entry.insts]
    first_add = order.index("add", order.index("buffer_load"))
    assert order.index("buffer_load", first_add) > first_add  # loads no longer all come first


def test_a_kernel_at_full_occupancy_keeps_its_order():
    text = taps_kernel(6)  # 24+ VGPRs: 16 waves already
    module, before, after = scheduled(text)
    assert waves(before) == 16
    assert print_module(module) == print_module(read_module(text))


def test_the_source_order_stays_when_the_step_is_out_of_reach():
    # Every tap also feeds one final sum, so all of them are live together whatever the order.
    text = taps_kernel(20).replace(
        "  %r = mul float4", "".join(f"  %z{k} = add float4 %t{k}, %t{k + 1}\n" for k in range(19))
        + "".join(f"  %y{k} = add float4 %z{k}, %z{k + 1}\n" for k in range(18))
        + "  %r = mul float4")
    text = text.replace("%r = mul float4 %s19, %m19", "%r0 = mul float4 %s19, %m19\n  %r = add float4 %r0, %y17")
    module, before, after = scheduled(text)
    assert before == after and print_module(module) == print_module(read_module(text))


def test_scheduling_keeps_the_results():
    text = taps_kernel(20)
    plain = read_module(text)
    module, _, _ = scheduled(text)
    source = np.arange(64 * 4 + 80, dtype=np.float32).reshape(-1, 4) % 7
    outputs = []
    for each in (plain, module):
        buffers = {"src": source.copy(), "out": np.zeros((64, 4), np.float32)}
        outputs.append(run_wave(each, buffers=buffers).buffers["out"])
    assert np.array_equal(outputs[0], outputs[1])


def test_loads_stay_between_the_side_effects_around_them():
    module = read_module(dedent("""
        resource @buf RWStructuredBuffer<float> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %i = thread_input uint {which="group_index"}
          %a = buffer_load float %i {resource="buf"}
          %one = const float {value=1.0}
          %b = add float %a, %one
          buffer_store %i, %b {resource="buf"}
          %c = buffer_load float %i {resource="buf"}
          barrier {scope="group", sync=true}
          %d = buffer_load float %i {resource="buf"}
          ret
        }
    """))
    body = module.function.entry.insts[:-1]
    before = _predecessors(body)
    a, store, c, barrier, d = (inst for inst in body if inst.op.value in ("buffer_load", "buffer_store", "barrier"))
    assert a in before[store] and store in before[c]
    assert {store, c} <= before[barrier] and barrier in before[d]


def test_spd_and_the_light_kernel_keep_their_source_order():
    """Neither is limited by VGPRs in a way one step can fix: the pass must not touch them."""
    for name in ("spd.hlsl", "occupancy_light.hlsl"):
        for wave in (32, 64):
            texts = []
            for skip in ("", "schedule"):
                path, diagnostics, options = ROOT / "samples" / name, Diagnostics(), Options(wave_size=wave)
                module = lower_program(check_source(path.read_text(), str(path), options, diagnostics),
                                       options, diagnostics)
                passes = [p for p in middle_end_passes(wave, diagnostics) if p.name != skip]
                texts.append(print_module(run_passes(module, passes, options, diagnostics)))
            assert texts[0] == texts[1], (name, wave)


def same_demand(one, other) -> bool:
    """Two analyses agree on every figure and set, instruction by instruction, in program order."""
    return (one.stamp == other.stamp and list(one.per_inst.items()) == list(other.per_inst.items())
            and (one.peak_vgprs, one.peak_sgprs, one.peak_vgpr_insts, one.peak_sgpr_insts)
            == (other.peak_vgprs, other.peak_sgprs, other.peak_vgpr_insts, other.peak_sgpr_insts)
            and one.names == other.names and one.live_in == other.live_in and one.live_out == other.live_out)


def test_the_schedule_leaves_the_analysis_of_the_order_it_keeps():
    """The pass analyses again only the blocks it reorders (liveness.reanalyze); the demand it
    leaves for the liveness pass is that of the new order, as a whole new analysis finds it."""
    module = read_module(taps_kernel(20))
    Schedule().run(module)
    kept = module.analyses["liveness"]
    assert same_demand(kept, analyze(module, fresh_uniformity(module)))
    assert kept.vgprs <= 80 - ALLOCATION_SLACK


def test_analysing_the_reordered_blocks_again_is_a_whole_analysis():
    """Every block of SPD (wave64: several blocks, loops, divergent regions) reordered with no
    budget to spare, then ``reanalyze`` of those blocks against ``analyze`` of the function."""
    path, diagnostics, options = ROOT / "samples" / "spd.hlsl", Diagnostics(), Options(wave_size=64)
    module = run_passes(lower_program(check_source(path.read_text(), str(path), options, diagnostics), options,
                                      diagnostics), middle_end_passes(64, diagnostics), options, diagnostics)
    demand = analyze(module, fresh_uniformity(module))
    reordered = []
    for block in module.function.blocks:
        order = schedule_block(block, demand, 0)
        if order is not None:
            block.insts = order
            reordered.append(block)
    assert len(reordered) > 3
    assert same_demand(reanalyze(module, demand, reordered), analyze(module, fresh_uniformity(module)))
