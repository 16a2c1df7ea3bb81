"""Liveness and register demand on IR text, with peaks small enough to count by hand."""

from textwrap import dedent

from shc.compiler.ir.reader import read_module
from shc.compiler.passes.liveness import Liveness, Regs
from shc.compiler.passes.uniformity import Uniformity


def demand(text):
    module = read_module(dedent(text))
    Liveness().run(module)
    return module.analyses["liveness"]


def by_name(result, name):
    return next(inst for inst, value in result.names.items() if value == name)


def at(result, name):
    """(VGPRs, SGPRs) in use at the instruction defining ``name``."""
    d = result.per_inst[by_name(result, name)]
    return d.vgprs, d.sgprs


def live_names(result, name):
    return sorted(result.name(v) for v in result.per_inst[by_name(result, name)].live)


STRAIGHT = """
resource @src StructuredBuffer<float4> t0 space0
resource @out RWStructuredBuffer<float4> u0 space0
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = thread_input uint3 {which="group_id"}
  %2 = buffer_load float4 %0 {resource="src"}                 ; k.hlsl:4:3
  %3 = buffer_load float4 %0 {resource="src"}                 ; k.hlsl:5:3
  %4 = buffer_load float4 %0 {resource="src"}                 ; k.hlsl:6:3
  %5 = add float4 %2, %3                                      ; k.hlsl:7:3
  %6 = add float4 %5, %4                                      ; k.hlsl:7:3
  %7 = extract uint %1 {index=0}                              ; k.hlsl:8:3
  buffer_store %6, %7 {resource="out"}                        ; k.hlsl:8:3
  ret
}
"""


def test_three_divergent_float4_live_at_once_take_12_vgprs():
    result = demand(STRAIGHT)
    # at %4: %2 and %3 live across (8), %4 written (4); %0 read for the last time (1) shares
    assert at(result, "%4") == (12, 3)  # the group id uint3 is live in SGPRs until %7
    assert at(result, "%2") == (5, 3)  # %0 (still needed) + %2
    assert at(result, "%3") == (9, 3)
    assert at(result, "%5") == (12, 3)  # %4 live across; reads %2 and %3 (8), writes 4 over them
    assert at(result, "%6") == (8, 3)
    assert at(result, "%7") == (4, 3)  # %6 across; the uint3 dies as its component is written
    assert result.peak_vgprs == 12 and result.peak_sgprs == 3
    assert [result.name(i) for i in result.peak_vgpr_insts] == ["%4", "%5"]
    assert result.value_regs[by_name(result, "%1")] == Regs(0, 3)
    store = [i for i in result.per_inst if i.op.value == "buffer_store"][0]
    assert (result.per_inst[store].vgprs, result.per_inst[store].sgprs) == (4, 1)


def test_fixed_registers_are_kept_apart():
    result = demand(STRAIGHT)
    assert result.fixed_vgpr_parts == {"thread id": 1}
    assert result.fixed_sgpr_parts == {"descriptors": 8, "descriptor table": 2, "vcc": 2}
    assert result.vgprs == 12 and result.sgprs == result.peak_sgprs + 12


def test_hot_lines_point_at_the_source_coords():
    result = demand(STRAIGHT)
    hot = result.hot_lines(3)
    assert [(h.file, h.line, h.live_vgprs) for h in hot] == [
        ("k.hlsl", 6, 12), ("k.hlsl", 7, 12), ("k.hlsl", 5, 9)]
    assert hot[0].values == ["%0", "%2", "%3", "%4"]  # SGPR values (the group id) are not listed
    assert hot[1].values == ["%2", "%3", "%4", "%5"]
    assert hot[2].values == ["%0", "%2", "%3"]
    assert len(result.hot_lines(10)) == 5  # lines 4 to 8


LOOP = """
resource @vec StructuredBuffer<float4> t0 space0
resource @src StructuredBuffer<float> t1 space0
resource @out RWStructuredBuffer<float> u0 space0
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = cbuffer_load uint {buffer="cb", offset=0}
  %1 = const uint {value=0}
  %2 = const uint {value=1}
  %3 = const float {value=0.0}
  %4 = thread_input uint {which="group_index"}
  %5 = buffer_load float4 %4 {resource="vec"}
  br ^head
^head:
  %6 = phi uint [%1, ^entry], [%12, ^cont]
  %7 = phi float [%3, ^entry], [%11, ^cont]
  %8 = lt bool %6, %0
  loop ^end ^cont
  cond_br %8, ^cont, ^end
^cont:
  %9 = add uint %4, %6
  %10 = buffer_load float %9 {resource="src"}
  %11 = add float %7, %10
  %12 = add uint %6, %2
  br ^head
^end:
  %13 = extract float %5 {index=0}
  %14 = add float %13, %7
  buffer_store %14, %4 {resource="out"}
  ret
}
"""


def test_uniform_loop_counter_is_an_sgpr_and_a_value_live_across_the_loop_holds_its_vgprs():
    result = demand(LOOP)
    counter = by_name(result, "%6")
    assert result.value_regs[counter] == Regs(0, 1)
    assert result.value_regs[by_name(result, "%7")] == Regs(1, 0)  # divergent accumulator
    # the float4 loaded before the loop is live in every block of it
    vec = by_name(result, "%5")
    for block in result.live_in:
        if block.name in ("head", "cont", "end"):
            assert vec in result.live_in[block]
    # in the body: %4 (1) + %5 (4) + %7 (1) live across, %9 read for the last time and
    # %10 written over it (1); SGPRs: %0 and the counter %6
    assert at(result, "%10") == (7, 2)
    assert live_names(result, "%10") == ["%0", "%10", "%4", "%5", "%6", "%7", "%9"]
    assert at(result, "%12") == (6, 2)  # the counter's last read, its next value written over it
    # constants are rematerialised: never live
    assert all(result.name(v) not in ("%1", "%2", "%3") for d in result.per_inst.values() for v in d.live)
    assert result.peak_vgprs == 7
    assert [result.name(i) for i in result.peak_vgpr_insts] == ["%9", "%10", "%11"]


def test_phi_operands_are_live_out_of_their_incoming_block_only():
    result = demand(LOOP)
    blocks = {block.name: block for block in result.live_in}
    names = lambda values: sorted(result.name(v) for v in values)  # noqa: E731
    assert names(result.live_out[blocks["cont"]]) == ["%0", "%11", "%12", "%4", "%5"]
    assert names(result.live_in[blocks["head"]]) == ["%0", "%4", "%5"]  # not %11, %12
    assert names(result.live_out[blocks["entry"]]) == ["%0", "%4", "%5"]  # constants are not live


MERGE = """
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = buffer_load float4 %0 {resource="a"}
  %2 = const uint {value=16}
  %3 = lt bool %0, %2
  selection ^merge
  cond_br %3, ^then, ^else
^then:
  %4 = buffer_load float4 %0 {resource="b"}
  br ^merge
^else:
  %5 = buffer_load float2 %0 {resource="c"}
  %6 = construct float4 %5, %5
  br ^merge
^merge:
  %7 = phi float4 [%4, ^then], [%6, ^else]
  %8 = add float4 %7, %1
  buffer_store %8, %0 {resource="out"}
  ret
}
"""


def test_phis_at_a_merge_and_the_saved_exec_mask():
    result = demand(MERGE)
    assert at(result, "%4") == (9, 1)  # %0, %1 live across; the saved exec mask (wave32: 1 SGPR)
    assert at(result, "%6") == (9, 1)  # %5 dies into %6
    assert at(result, "%7") == (9, 0)  # the phi: %0, %1, %7; the mask is restored at the merge
    assert result.per_inst[by_name(result, "%4")].exec_sgprs == 1
    assert at(result, "%3") == (5, 1)  # the divergent condition is a lane mask
    wave64 = demand(MERGE.replace("wave32", "wave64"))
    assert at(wave64, "%3") == (5, 2)
    assert wave64.per_inst[by_name(wave64, "%4")].exec_sgprs == 2


SIXTEEN = """
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = buffer_load half4 %0 {resource="a"}
  %2 = buffer_load half3 %0 {resource="a"}
  %3 = buffer_load half %0 {resource="a"}
  %4 = buffer_load double %0 {resource="a"}
  %5 = buffer_load uint16_t2 %0 {resource="a"}
  buffer_store %1, %0 {resource="out"}
  buffer_store %4, %0 {resource="out"}
  buffer_store %2, %0 {resource="out"}
  buffer_store %3, %0 {resource="out"}
  buffer_store %5, %0 {resource="out"}
  ret
}
"""


def test_16_bit_components_pack_in_pairs_within_a_value_and_64_bit_takes_two():
    result = demand(SIXTEEN)
    sizes = {name: result.value_regs[by_name(result, name)].vgprs for name in ("%1", "%2", "%3", "%4", "%5")}
    assert sizes == {"%1": 2, "%2": 2, "%3": 1, "%4": 2, "%5": 1}
    # at %5: %0 1 + %1 2 + %2 2 + %3 1 + %4 2 live across, %5 1 written
    assert at(result, "%5") == (9, 0)
    assert result.peak_vgprs == 9


BOOLS = """
func @main numthreads(64, 1, 1) WAVE {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = cbuffer_load uint {buffer="cb", offset=0}
  %2 = lt bool %0, %1
  %3 = lt bool %1, %1
  %4 = and bool %2, %3
  %5 = select uint %4, %0, %1
  buffer_store %5, %0 {resource="out"}
  ret
}
"""


def test_divergent_bools_are_lane_masks_sized_by_the_wave():
    w32 = demand(BOOLS.replace("WAVE", "wave32"))
    w64 = demand(BOOLS.replace("WAVE", "wave64"))
    assert w32.value_regs[by_name(w32, "%2")] == Regs(0, 1)
    assert w64.value_regs[by_name(w64, "%2")] == Regs(0, 2)
    assert w32.value_regs[by_name(w32, "%3")] == w64.value_regs[by_name(w64, "%3")] == Regs(0, 1)
    # at %4: %0 (v) and %1 (s) live across; %2 and %3 read for the last time, the mask %4
    # written over them
    assert at(w32, "%4") == (1, 1 + 2)
    assert at(w64, "%4") == (1, 1 + 3)
    assert w32.peak_sgprs == 3 and w64.peak_sgprs == 4  # at %3: %1 + the mask %2 + %3


def test_uniform_values_the_scalar_unit_cannot_produce_take_vgprs():
    result = demand("""
        resource @ro StructuredBuffer<float> t0 space0
        resource @typed Buffer<float> t1 space0
        resource @rw RWStructuredBuffer<float> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = cbuffer_load float {buffer="cb", offset=0}
          %1 = cbuffer_load uint {buffer="cb", offset=4}
          %2 = buffer_load float %1 {resource="ro"}
          %3 = buffer_load float %1 {resource="typed"}
          %4 = buffer_load float %1 {resource="rw"}
          %5 = add float %0, %2
          %6 = add uint %1, %1
          %7 = lds_load uint %1 {var="x"}
          %8 = wave_active float %5 {fn="sum"}
          %9 = lt bool %1, %6
          %10 = select float %9, %0, %2
          %11 = convert float %6
          %12 = select float %9, %0, %5
          ret
        }
    """)
    regs = {result.name(value): value_regs for value, value_regs in result.value_regs.items()}
    assert regs == {
        "%0": Regs(0, 1),  # s_buffer_load
        "%1": Regs(0, 1),
        "%2": Regs(0, 1),  # read-only structured buffer: a scalar load
        "%3": Regs(1, 0),  # typed buffer: vector memory
        "%4": Regs(1, 0),  # writable buffer: vector memory
        "%5": Regs(1, 0),  # float add: VALU only on gfx10
        "%6": Regs(0, 1),  # integer add: SALU
        "%7": Regs(1, 0),  # LDS results land in VGPRs
        "%8": Regs(0, 1),  # a reduction's result is read back into an SGPR
        "%9": Regs(0, 1),  # a uniform bool: SCC or one SGPR
        "%10": Regs(0, 1),  # s_cselect between SGPRs
        "%11": Regs(1, 0),  # int to float conversion: VALU
        "%12": Regs(1, 0),  # one side is in a VGPR: v_cndmask
    }


def test_reuses_a_current_uniformity_result_and_reruns_a_stale_one():
    module = read_module(dedent(STRAIGHT))
    Uniformity().run(module)
    info = module.analyses["uniformity"]
    Liveness().run(module)
    assert module.analyses["uniformity"] is info
    module.analyses["uniformity"].levels.clear()
    Liveness().run(module)
    assert module.analyses["uniformity"] is not info
    assert module.analyses["liveness"].peak_vgprs == 12


def test_the_analysis_is_reused_only_for_the_same_function():
    module = read_module(dedent(STRAIGHT))
    Liveness().run(module)
    first = module.analyses["liveness"]
    Liveness().run(module)
    assert module.analyses["liveness"] is first  # nothing changed: nothing recomputed
    block = module.function.entry
    loads = [inst for inst in block.insts if inst.op.value == "buffer_load"]
    i, j = block.insts.index(loads[0]), block.insts.index(loads[1])
    block.insts[i], block.insts[j] = block.insts[j], block.insts[i]  # same instructions, new order
    Liveness().run(module)
    assert module.analyses["liveness"] is not first
