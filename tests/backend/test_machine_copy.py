"""``MFunction.copy`` and what listing.py does with it: the kernel is selected once, and the
listing that keeps scalar loads apart is cleaned up from a copy taken before they merged."""

from __future__ import annotations

import os

import pytest

from shc.compiler.backend.rdna2 import listing as listing_module
from shc.compiler.backend.rdna2.cleanup import CleanUp
from shc.compiler.backend.rdna2.isel import Selector
from shc.compiler.backend.rdna2.machine import SubReg, VReg
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.pipeline import Options, compile_file

SPD = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "spd.hlsl")


def registers_of(function) -> set[int]:
    found = set()
    for inst in function.instructions():
        for operand in [*inst.defs, *inst.uses]:
            if isinstance(operand, VReg):
                found.add(id(operand))
            elif isinstance(operand, SubReg):
                found.add(id(operand.base))
    return found


def test_a_copy_shares_no_instruction_or_register_and_allocates_alike():
    module = compile_file(SPD, Options(wave_size=32), Diagnostics())
    original = Selector(module).run()
    twin = original.copy()
    assert [inst.mnemonic for inst in twin.instructions()] == [inst.mnemonic for inst in original.instructions()]
    assert not {id(inst) for inst in twin.instructions()} & {id(inst) for inst in original.instructions()}
    assert not registers_of(twin) & registers_of(original)
    assert [block.label for block in twin.blocks] == [block.label for block in original.blocks]
    before = [reg.phys for inst in original.instructions() for reg in inst.registers()]
    allocate(twin)  # writes physical registers into the copy's registers only
    assert [reg.phys for inst in original.instructions() for reg in inst.registers()] == before
    allocate(original)
    assert [inst.format() for inst in twin.instructions()] == [inst.format() for inst in original.instructions()]


@pytest.mark.parametrize("wave", [32, 64])
def test_the_kernel_is_selected_once_and_lists_as_a_second_selection_would(wave, monkeypatch):
    module = compile_file(SPD, Options(wave_size=wave), Diagnostics())
    # what the listing did before: a second selection with merging off, weighed against the first
    apart = Selector(module)
    apart.clean_up = CleanUp(merge_smem=False)
    apart_function = apart.run()
    apart_allocation = allocate(apart_function, scratch_base=module.scratch_bytes)
    merged = Selector(module)
    merged_function = merged.run()
    merged_allocation = allocate(merged_function, scratch_base=module.scratch_bytes)
    kept_apart = listing_module._costlier(merged_allocation, apart_allocation)
    chosen, chosen_function = (apart, apart_function) if kept_apart else (merged, merged_function)

    runs = []
    real_run = Selector.run
    monkeypatch.setattr(Selector, "run", lambda self: runs.append(self) or real_run(self))
    selector, function, _ = listing_module.select_and_allocate(module)
    assert len(runs) == 1
    assert [inst.format() for inst in function.instructions()] == \
        [inst.format() for inst in chosen_function.instructions()]
    # the header's bindings name the registers of the function listed, the copy's when it is kept apart
    assert [listing_module.descriptor_text(selector, binding) for binding in module.bindings] == \
        [listing_module.descriptor_text(chosen, binding) for binding in module.bindings]
    assert kept_apart == (wave == 64)  # SPD keeps its constants' loads apart at wave64
