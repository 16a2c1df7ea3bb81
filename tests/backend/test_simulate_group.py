"""The listing simulator on whole workgroups (``simulate_group.py``) and its ``s_waitcnt`` check
(``simulate_waits.py``): several waves meeting at ``s_barrier`` over one LDS, several groups,
the thread and group ids of the ABI, and listings with a wait taken out."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
import shc
from shc.compiler.backend.rdna2.listing import render_listing
from shc.compiler.backend.rdna2.machine import Imm, Label, MBlock, MInst, VReg
from shc.compiler.backend.rdna2.simulate import SimulationError
from shc.compiler.backend.rdna2.simulate_group import simulate_dispatch
from shc.compiler.backend.rdna2.simulate_waits import Outstanding
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.pipeline import Options, compile_source

# Each thread reads a slot another wave wrote: without the barrier, or with the waves run one
# after the other to the end, the group's second half reads zeros.
EXCHANGE = """
    RWStructuredBuffer<uint> o : register(u0);
    StructuredBuffer<uint> i : register(t0);
    groupshared uint g[128];
    [numthreads(128, 1, 1)]
    void main(uint t : SV_GroupThreadID, uint3 d : SV_DispatchThreadID, uint3 gid : SV_GroupID) {
        g[t] = i[d.x] * 3 + gid.x;
        GroupMemoryBarrierWithGroupSync();
        o[d.x] = g[127 - t] + WaveActiveSum(1u);
    }
"""

# Three axes of threads and groups: every id the ABI gives, in every wave.
IDS = """
    RWStructuredBuffer<uint> o : register(u0);
    [numthreads(8, 4, 3)]
    void main(uint3 t : SV_GroupThreadID, uint3 d : SV_DispatchThreadID, uint3 g : SV_GroupID,
              uint flat : SV_GroupIndex) {
        uint group = g.x + 2 * g.y;
        o[group * 96 + flat] = t.x | (t.y << 4) | (t.z << 8) | (d.x << 12) | (d.y << 18) | (d.z << 24) | (group << 28);
    }
"""


def build(text: str, wave: int):
    diagnostics = Diagnostics()
    module = compile_source(textwrap.dedent(text), "group.hlsl", Options(wave_size=wave), diagnostics)
    return module, render_listing(module, sources=diagnostics.sources), diagnostics.sources


@pytest.mark.parametrize("wave", [32, 64])
def test_waves_meet_at_the_barrier_and_share_the_groups_lds(wave):
    module, listing, sources = build(EXCHANGE, wave)
    data = np.arange(256, dtype=np.uint32) * 7 + 5
    state = simulate_dispatch(listing.function, module, (2, 1, 1), {"o": np.zeros(256, np.uint32), "i": data},
                              sources=sources)
    jit = np.zeros(256, np.uint32)
    shc.compile(textwrap.dedent(EXCHANGE), wave_size=wave).dispatch((2, 1, 1), o=jit, i=data)
    tid = np.arange(256)
    mirrored = (tid // 128) * 128 + 127 - tid % 128
    assert jit.tolist() == (data[mirrored] * 3 + tid // 128 + wave).tolist()
    assert state.difference("o", jit.tobytes()) is None
    assert state.executed["s_barrier"] == 2 * 128 // wave  # every wave of both groups


@pytest.mark.parametrize("wave", [32, 64])
def test_every_wave_gets_its_thread_and_group_ids(wave):
    module, listing, sources = build(IDS, wave)
    state = simulate_dispatch(listing.function, module, (2, 2, 1), {"o": np.zeros(384, np.uint32)}, sources=sources)
    jit = np.zeros(384, np.uint32)
    shc.compile(textwrap.dedent(IDS), wave_size=wave).dispatch((2, 2, 1), o=jit)
    assert np.count_nonzero(jit) == 383
    assert state.difference("o", jit.tobytes()) is None


def test_a_difference_names_the_store_and_its_source_line():
    module, listing, sources = build(EXCHANGE, 32)
    state = simulate_dispatch(listing.function, module, (1, 1, 1), {"o": np.zeros(128, np.uint32),
                                                                     "i": np.ones(128, np.uint32)}, sources=sources)
    other = np.asarray(state.buffers["o"]).copy()
    other[5] += 1
    problem = state.difference("o", other.tobytes())
    assert problem.startswith("'o' differs at 1 element(s); first [5]: listing 0x00000023, expected 0x00000024;")
    assert problem.endswith("from group.hlsl:9: o[d.x] = g[127 - t] + WaveActiveSum(1u);")
    assert "last written by 'buffer_store_dword" in problem


def _waits(listing) -> list[MInst]:
    return [inst for inst in listing.function.instructions() if inst.mnemonic == "s_waitcnt"]


def _without(listing, victim: MInst) -> None:
    for block in listing.function.blocks:
        block.insts = [inst for inst in block.insts if inst is not victim]


@pytest.mark.parametrize("wave", [32, 64])
def test_deleting_any_one_wait_is_caught(wave):
    """Every s_waitcnt of this kernel covers a load the next instructions need: take out any
    one and the simulator names the instruction that reads too early and its line."""
    buffers = {"o": np.zeros(128, np.uint32), "i": np.arange(128, dtype=np.uint32)}
    module, listing, sources = build(EXCHANGE, wave)
    assert len(_waits(listing)) == 4  # descriptors, the buffer load, LDS before the barrier, the LDS read
    simulate_dispatch(listing.function, module, (1, 1, 1), buffers, sources=sources)  # all in place: runs
    messages = []
    for number in range(4):
        module, listing, sources = build(EXCHANGE, wave)
        _without(listing, _waits(listing)[number])
        with pytest.raises(SimulationError) as failure:
            simulate_dispatch(listing.function, module, (1, 1, 1), buffers, sources=sources)
        messages.append(str(failure.value))
    assert "before an s_waitcnt lgkmcnt covers 's_load_dwordx4" in messages[0]
    assert messages[1].startswith("group.hlsl:7: g[t] = i[d.x] * 3 + gid.x;: 'v_mul_lo_u32")
    assert "before an s_waitcnt vmcnt covers 'buffer_load_dword" in messages[1]
    assert "s_barrier with 1 LDS access(es) outstanding" in messages[2]
    assert "before an s_waitcnt lgkmcnt covers 'ds_read_b32" in messages[3]
    assert "(group.hlsl:9: o[d.x] = g[127 - t] + WaveActiveSum(1u);)" in messages[3]


def test_a_barrier_only_some_waves_reach_is_an_error():
    """The front end refuses a barrier under divergent flow, so the listing is edited: waves
    whose first thread id is not 0 jump past the barrier to the end."""
    module, listing, sources = build(EXCHANGE, 32)
    blocks = listing.function.blocks
    block = next(block for block in blocks if any(inst.mnemonic == "s_barrier" for inst in block.insts))
    at = next(number for number, inst in enumerate(block.insts) if inst.mnemonic == "s_barrier")
    first = VReg("s", 1, phys=100)
    block.insts[at:at] = [MInst("v_readfirstlane_b32", [first], [VReg("v", 1, phys=0)]),
                          MInst("s_cmp_lg_u32", [], [first, Imm(0)]),
                          MInst("s_cbranch_scc1", [], [Label(".Lskip")])]
    blocks.append(MBlock(".Lskip", [MInst("s_endpgm")]))
    with pytest.raises(SimulationError, match=r"^group \(0, 0, 0\): waves \[0\] wait at s_barrier \(group.hlsl:8: "
                                              r".*\) but waves \[1, 2, 3\] ended without reaching it"):
        simulate_dispatch(listing.function, module, (1, 1, 1), {"o": np.zeros(128, np.uint32),
                                                                "i": np.zeros(128, np.uint32)}, sources=sources)


def _nowhere(inst: MInst) -> str:
    return "here"


def _load(mnemonic: str, first: int, size: int) -> MInst:
    return MInst(mnemonic, [VReg("s", size, phys=first)], [VReg("s", 2, phys=0)])


def test_scalar_loads_return_out_of_order_so_only_lgkmcnt_0_covers_them():
    where = _nowhere
    reader = MInst("s_add_u32", [VReg("s", 1, phys=20)], [VReg("s", 1, phys=4), VReg("s", 1, phys=4)])
    waits = Outstanding()
    waits.issue(_load("s_load_dwordx4", 4, 4))
    waits.issue(_load("s_load_dwordx4", 8, 4))
    waits.wait(MInst("s_waitcnt", modifiers="lgkmcnt(1)"))  # one returned, but which one is unknown
    with pytest.raises(SimulationError, match="uses s4 before an s_waitcnt lgkmcnt covers 's_load_dwordx4 s\\[4:7\\]"):
        waits.check(reader, where)
    waits.wait(MInst("s_waitcnt", modifiers="lgkmcnt(0)"))
    waits.check(reader, where)


def test_vector_loads_return_in_order_so_vmcnt_n_covers_all_but_the_newest_n():
    where = _nowhere
    older = MInst("buffer_load_dword", [VReg("v", 1, phys=1)], [VReg("v", 1, phys=0), VReg("s", 4, phys=4)])
    newer = MInst("buffer_load_dword", [VReg("v", 1, phys=2)], [VReg("v", 1, phys=0), VReg("s", 4, phys=4)])
    waits = Outstanding()
    waits.issue(older)
    waits.issue(newer)
    waits.wait(MInst("s_waitcnt", modifiers="vmcnt(1)"))
    waits.check(MInst("v_mov_b32", [VReg("v", 1, phys=3)], [VReg("v", 1, phys=1)]), where)
    with pytest.raises(SimulationError, match="uses v2 before an s_waitcnt vmcnt covers"):
        waits.check(MInst("v_mov_b32", [VReg("v", 1, phys=3)], [VReg("v", 1, phys=2)]), where)
    with pytest.raises(SimulationError, match="uses v2"):  # overwriting it races the load too
        waits.check(MInst("v_mov_b32", [VReg("v", 1, phys=2)], [VReg("v", 1, phys=3)]), where)
