"""Linear-scan allocation: tuples, reuse after last use, loops, SGPR pair alignment, spills."""

from shc.compiler.backend.rdna2.machine import Imm, Label, MBlock, MFunction, VReg
from shc.compiler.backend.rdna2.operand_classes import operand_class_problems
from shc.compiler.backend.rdna2.regalloc import allocate


def one_block():
    """A function of one block, ``entry``."""
    function = MFunction("main")
    block = MBlock("entry")
    function.blocks.append(block)
    return function, block


def straight_line(count, size=4):
    function, block = one_block()
    regs = [VReg("v", size) for _ in range(count)]
    for reg in regs:
        for k in range(size):
            block.emit("v_mov_b32", [reg.part(k)], [Imm(k)])
    total = VReg("v")
    block.emit("v_mov_b32", [total], [Imm(0)])
    for reg in regs:
        for k in range(size):
            block.emit("v_add_f32", [total], [total, reg.part(k)])
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
    function, block = one_block()
    first, second = VReg("v", 4), VReg("v", 4)
    sink = VReg("v")
    block.emit("v_mov_b32", [first.part(0)], [Imm(1)])
    block.emit("v_mov_b32", [sink], [first.part(0)])
    block.emit("v_mov_b32", [second.part(0)], [sink])
    block.emit("v_mov_b32", [sink], [second.part(0)])
    block.emit("s_endpgm")
    allocation = allocate(function)
    assert sink.phys == first.phys == 0  # the tuple dies where the sink is written
    assert second.phys == 1 and allocation.vgprs_used == 5


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
    # each component is written alone, so each is stored alone, at its own offset of the slot
    stores = [line for line in text if line.startswith("scratch_store")]
    assert stores and all(line.startswith("scratch_store_dword off, v") for line in stores)
    assert {int(line.rsplit("offset:", 1)[1]) % 16 for line in stores} == {0, 4, 8, 12}
    assert any(line.startswith("scratch_load_dwordx4") for line in text)
    assert allocation.vgprs_used <= 256


def test_sgpr_quads_start_on_a_multiple_of_four():
    function, block = one_block()
    pair, quad = VReg("s", 2), VReg("s", 4)
    block.emit("s_mov_b64", [pair], [Imm(0)])
    block.emit("s_load_dwordx4", [quad], [pair, Imm(0)])
    block.emit("s_add_u32", [pair.part(0)], [quad.part(0), quad.part(3)])
    block.emit("s_endpgm")
    allocate(function)
    assert pair.phys == 0 and quad.phys == 4


def test_a_result_takes_the_register_of_an_operand_that_dies_in_the_same_instruction():
    function, block = one_block()
    a, b, total = VReg("v"), VReg("v"), VReg("v")
    block.emit("v_mov_b32", [a], [Imm(1.0)])
    block.emit("v_mov_b32", [b], [Imm(2.0)])
    block.emit("v_add_f32", [total], [a, b])
    block.emit("v_mul_f32", [total], [total, total])
    block.emit("s_endpgm")
    allocation = allocate(function)
    assert total.phys == a.phys == 0 and b.phys == 1
    assert allocation.vgprs_used == 2


def test_a_64_bit_valu_result_does_not_overlap_its_operands():
    function, block = one_block()
    source, wide = VReg("v", 2), VReg("v", 2)
    block.emit("v_mov_b32", [source.part(0)], [Imm(1)])
    block.emit("v_mov_b32", [source.part(1)], [Imm(2)])
    block.emit("v_lshlrev_b64", [wide], [Imm(2), source])
    block.emit("global_store_dwordx2", [], [wide])
    block.emit("s_endpgm")
    allocate(function)
    assert {source.phys, source.phys + 1}.isdisjoint({wide.phys, wide.phys + 1})


def test_a_copy_whose_source_dies_is_coalesced_and_disappears():
    function, block = one_block()
    value, copy = VReg("v"), VReg("v")
    block.emit("v_mov_b32", [value], [Imm(3)])
    block.emit("v_mov_b32", [copy], [value])
    block.emit("v_add_nc_u32", [copy], [copy, Imm(1)])
    block.emit("s_endpgm")
    allocate(function)
    assert copy.phys == value.phys
    assert [inst.format() for inst in function.instructions()] == [
        "v_mov_b32 v0, 3", "v_add_nc_u32 v0, v0, 1", "s_endpgm"]


def test_a_copy_whose_source_stays_live_keeps_both_registers():
    function, block = one_block()
    value, copy = VReg("v"), VReg("v")
    block.emit("v_mov_b32", [value], [Imm(3)])
    block.emit("v_mov_b32", [copy], [value])
    block.emit("v_add_nc_u32", [copy], [copy, value])
    block.emit("s_endpgm")
    allocation = allocate(function)
    assert copy.phys != value.phys and allocation.vgprs_used == 2
    assert len(list(function.instructions())) == 4


def test_a_precoloured_register_is_free_after_its_last_use():
    function, block = one_block()
    thread_id, scaled, other = VReg("v", phys=0), VReg("v"), VReg("v")
    block.emit("v_lshlrev_b32", [scaled], [Imm(2), thread_id])
    block.emit("v_mov_b32", [other], [Imm(5)])
    block.emit("v_add_nc_u32", [other], [other, scaled])
    block.emit("s_endpgm")
    allocation = allocate(function)
    assert scaled.phys == 0 and other.phys == 1
    assert allocation.vgprs_used == 2


def test_tuple_components_are_free_after_their_own_last_use():
    function, block = one_block()
    texel, first, later = VReg("v", 4), VReg("v"), VReg("v")
    block.emit("image_load", [texel], [Imm(0)])
    block.emit("v_mul_f32", [first], [texel.part(0), texel.part(0)])  # x is dead after this
    block.emit("v_mov_b32", [later], [Imm(2.0)])  # y, z, w are still to be read
    block.emit("v_add_f32", [later], [later, texel.part(1)])
    block.emit("v_add_f32", [later], [later, texel.part(2)])
    block.emit("v_add_f32", [later], [later, texel.part(3)])
    block.emit("v_add_f32", [later], [later, first])
    block.emit("s_endpgm")
    allocation = allocate(function)
    assert texel.phys == 0 and first.phys == 0 and later.phys == 4
    assert allocation.vgprs_used == 5


def test_an_elementwise_result_tuple_takes_over_its_dying_source_tuple():
    function, block = one_block()
    texel, scale, product = VReg("v", 4), VReg("v"), VReg("v", 4)
    block.emit("image_load", [texel], [Imm(0)])
    block.emit("v_mov_b32", [scale], [Imm(0.5)])
    block.emit("implicit_def", [product])
    for k in range(4):
        block.emit("v_mul_f32", [product.part(k)], [texel.part(k), scale])
    block.emit("buffer_store_dwordx4", [], [product])
    block.emit("s_endpgm")
    allocation = allocate(function)
    assert product.phys == texel.phys == 0 and scale.phys == 4
    assert allocation.vgprs_used == 5


def test_a_result_tuple_does_not_take_over_a_source_read_after_the_overwrite():
    function, block = one_block()
    texel, swapped = VReg("v", 2), VReg("v", 2)
    block.emit("image_load", [texel], [Imm(0)])
    block.emit("implicit_def", [swapped])
    block.emit("v_mov_b32", [swapped.part(0)], [texel.part(1)])
    block.emit("v_mov_b32", [swapped.part(1)], [texel.part(0)])  # x is read after x' is written
    block.emit("buffer_store_dwordx2", [], [swapped])
    block.emit("s_endpgm")
    allocate(function)
    assert {texel.phys, texel.phys + 1}.isdisjoint({swapped.phys, swapped.phys + 1})


TABLE = VReg("s", 2, "descriptor table", phys=0)


def test_descriptors_short_of_sgprs_are_loaded_again_at_each_use_not_spilled():
    """Issue #16: 14 image descriptors (112 SGPRs) live at once. The allocator once spilled one into
    VGPRs (``s_load_dwordx8 v[107:114]``, ``scratch_store_dwordx8``); a descriptor comes from the
    table, so it is dropped and loaded again just before each instruction that reads it."""
    function, block = one_block()
    descriptors = [VReg("s", 8, f"image{k}") for k in range(14)]
    for k, descriptor in enumerate(descriptors):
        block.emit("s_load_dwordx8", [descriptor], [TABLE, Imm(32 * k)])
    address, texel = VReg("v"), VReg("v")
    block.emit("v_mov_b32", [address], [Imm(0)])
    for descriptor in descriptors:
        block.emit("image_load", [texel], [address, descriptor], "dmask:0x1 dim:SQ_RSRC_IMG_1D unorm")
    block.emit("s_endpgm")
    allocation = allocate(function)
    assert allocation.rematerialised and not allocation.spilled and allocation.scratch_bytes == 0
    assert allocation.sgprs_used <= 106
    insts = list(function.instructions())
    reloads = [inst for inst in insts if inst.comment.endswith("(reloaded)")]
    assert len(reloads) == len(allocation.rematerialised)  # each was read once
    for reg in allocation.rematerialised:  # the prologue's load is gone
        assert all(reg not in inst.registers() for inst in insts)
    for index, inst in enumerate(insts):
        if inst.mnemonic == "image_load" and inst.uses[1] not in descriptors:
            reload = insts[index - 1]  # into registers of its own, right before the use
            assert reload in reloads and reload.defs[0] is inst.uses[1] and reload.uses[0] is TABLE
    text = "\n".join(inst.format() for inst in insts)
    assert operand_class_problems(text) == []


def test_scalars_short_of_sgprs_live_in_vgpr_lanes():
    """110 computed scalars live at once: each goes to a lane of a VGPR set aside above the
    allocated ones (``v_writelane_b32`` where it is written, ``v_readlane_b32`` where it is read);
    no scalar instruction names a VGPR and nothing goes to scratch."""
    function, block = one_block()
    scalars = [VReg("s", 1, f"x{k}") for k in range(110)]
    for k, scalar in enumerate(scalars):
        block.emit("s_add_u32", [scalar], [TABLE.part(0), Imm(k)])
    total, out = VReg("s"), VReg("v")
    block.emit("s_mov_b32", [total], [Imm(0)])
    for scalar in scalars:
        block.emit("s_add_u32", [total], [total, scalar])
    block.emit("v_mov_b32", [out], [total])
    block.emit("s_endpgm")
    allocation = allocate(function)
    lane_spilled = [reg for reg in allocation.spilled if reg.cls == "s"]
    assert lane_spilled and allocation.spill_lanes == 1 and allocation.scratch_bytes == 0
    assert allocation.sgprs_used <= 106 and not allocation.rematerialised
    text = [inst.format() for inst in function.instructions() if not inst.is_marker]
    writes = [line for line in text if line.startswith("v_writelane_b32")]
    reads = [line for line in text if line.startswith("v_readlane_b32")]
    assert len(writes) == len(reads) == len(lane_spilled)  # each written once and read once
    holder = writes[0].split(",")[0].split()[1]
    assert holder == f"v{allocation.vgprs_used - 1}" and out.phys < allocation.vgprs_used - 1
    assert {line.split(", ")[-1] for line in writes} == {str(lane) for lane in range(len(lane_spilled))}
    assert operand_class_problems("\n".join(text)) == []


def test_a_tuple_written_dword_by_dword_in_a_branch_is_not_live_before_it():
    """A pair written one dword at a time (``v_readlane_b32 s4, ...`` then ``s5``) is defined where
    its last dword is; it once looked live from the entry and across the whole branch (issue #16:
    256 VGPRs for a 64-bit WaveMultiPrefixSum at wave64)."""
    function = MFunction("main")
    entry, then, done = MBlock("entry"), MBlock(".LBB0_1"), MBlock(".LBB0_2")
    function.blocks += [entry, then, done]
    kept = VReg("v")
    entry.emit("v_mov_b32", [kept], [Imm(1)])
    entry.emit("s_cbranch_execz", [], [Label(".LBB0_2")])
    pairs = [VReg("v", 2) for _ in range(3)]
    for pair in pairs:  # each pair written part by part, read, and dead before the next
        then.emit("v_mov_b32", [pair.part(0)], [kept])
        then.emit("v_mov_b32", [pair.part(1)], [Imm(0)])
        then.emit("v_add_f64", [kept], [pair, pair])
    done.emit("v_mov_b32", [kept], [kept])
    done.emit("s_endpgm")
    allocation = allocate(function)
    assert len({pair.phys for pair in pairs}) == 1 and allocation.vgprs_used == 3


def test_a_spilled_eight_register_tuple_moves_four_dwords_at_a_time():
    """There is no ``scratch_load_dwordx8``: an 8-wide spill slot is reloaded in two halves."""
    function, _, _ = straight_line(40, size=8)  # 320 VGPRs live at once
    allocation = allocate(function)
    assert any(reg.size == 8 for reg in allocation.spilled)
    text = [inst.format() for inst in function.instructions()]
    loads = [line for line in text if line.startswith("scratch_load")]
    assert loads and all(line.startswith("scratch_load_dwordx4 v[") for line in loads)
    assert operand_class_problems("\n".join(text)) == []
