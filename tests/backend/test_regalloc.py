"""Linear-scan allocation: tuples, reuse after last use, loops, SGPR pair alignment, spills."""

from shc.compiler.backend.rdna2.machine import Imm, Label, MBlock, MFunction, VReg
from shc.compiler.backend.rdna2.regalloc import allocate


def straight_line(count, size=4):
    function = MFunction("main")
    block = MBlock("entry")
    function.blocks.append(block)
    regs = [VReg("v", size) for _ in range(count)]
    for reg in regs:
        block.emit("v_mov_b32", [reg.part(0)], [Imm(0)])
    total = VReg("v")
    block.emit("v_mov_b32", [total], [Imm(0)])
    for reg in regs:
        block.emit("v_add_f32", [total], [total, reg.part(size - 1)])
    block.emit("s_endpgm")
    return function, regs, total


def test_tuples_are_consecutive_and_all_live_values_get_distinct_registers():
    function, regs, total = straight_line(3)
    allocation = allocate(function)
    assert [reg.phys for reg in regs] == [0, 4, 8]
    assert total.phys == 12
    assert allocation.vgprs_used == 13
    assert "v_add_f32 v12, v12, v3" in [inst.format() for inst in function.instructions()]


def test_registers_are_reused_after_the_last_use():
    function = MFunction("main")
    block = MBlock("entry")
    function.blocks.append(block)
    first, second = VReg("v", 4), VReg("v", 4)
    sink = VReg("v")
    block.emit("v_mov_b32", [first.part(0)], [Imm(1)])
    block.emit("v_mov_b32", [sink], [first.part(0)])
    block.emit("v_mov_b32", [second.part(0)], [sink])
    block.emit("v_mov_b32", [sink], [second.part(0)])
    block.emit("s_endpgm")
    allocation = allocate(function)
    assert first.phys == second.phys == 0
    assert allocation.vgprs_used == 5


def test_value_live_around_a_loop_is_not_reused_inside_it():
    function = MFunction("main")
    entry, loop, done = MBlock("entry"), MBlock(".LBB0_1"), MBlock(".LBB0_2")
    function.blocks += [entry, loop, done]
    counter, temp, kept = VReg("v"), VReg("v"), VReg("v")
    entry.emit("v_mov_b32", [kept], [Imm(7)])
    entry.emit("v_mov_b32", [counter], [Imm(0)])
    loop.emit("v_add_nc_u32", [temp], [counter, Imm(1)])
    loop.emit("v_mov_b32", [counter], [temp])
    loop.emit("s_cbranch_execnz", [], [Label(".LBB0_1")])
    done.emit("v_add_nc_u32", [counter], [counter, kept])
    done.emit("s_endpgm")
    allocate(function)
    assert len({counter.phys, temp.phys, kept.phys}) == 3


def test_sgpr_pairs_start_even():
    function = MFunction("main", wave_size=64)
    block = MBlock("entry")
    function.blocks.append(block)
    single, pair = VReg("s"), VReg("s", 2)
    block.emit("s_mov_b32", [single], [Imm(1)])
    block.emit("s_mov_b64", [pair], [Imm(0)])
    block.emit("s_add_u32", [single], [single, pair.part(0)])
    block.emit("s_endpgm")
    allocation = allocate(function)
    assert pair.phys % 2 == 0 and allocation.sgprs_used == 4


def test_running_out_of_vgprs_spills_to_scratch_and_counts_it():
    function, regs, _ = straight_line(70)  # 280 VGPRs live at once
    allocation = allocate(function)
    assert allocation.spilled
    assert allocation.scratch_bytes == sum(4 * r.size for r in allocation.spilled)  # per lane
    text = [inst.format() for inst in function.instructions()]
    assert any(line.startswith("scratch_store_dwordx4") for line in text)
    assert any(line.startswith("scratch_load_dwordx4") for line in text)
    assert allocation.vgprs_used <= 256


def test_sgpr_quads_start_on_a_multiple_of_four():
    function = MFunction("main")
    block = MBlock("entry")
    function.blocks.append(block)
    pair, quad = VReg("s", 2), VReg("s", 4)
    block.emit("s_mov_b64", [pair], [Imm(0)])
    block.emit("s_load_dwordx4", [quad], [pair, Imm(0)])
    block.emit("s_add_u32", [pair.part(0)], [quad.part(0), quad.part(3)])
    block.emit("s_endpgm")
    allocate(function)
    assert pair.phys == 0 and quad.phys == 4
