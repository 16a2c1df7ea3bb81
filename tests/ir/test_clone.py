"""``clone_module`` (compiler/ir/clone.py) and ``compile_program_waves``, which lowers a kernel once
for ``shc regs`` and continues each wave size on a copy: the copies must give exactly what a
compile per wave size gives, and changing a copy must leave the original as it was."""

from __future__ import annotations

import glob
import os

import pytest
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.clone import clone_module
from shc.compiler.ir.printer import print_module
from shc.compiler.pipeline import (
    Options,
    check_source,
    compile_program,
    compile_program_waves,
    lower_program,
    middle_end_passes,
    run_passes,
)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = sorted(glob.glob(os.path.join(ROOT, "samples", "*.hlsl")))


def checked(path: str, options: Options):
    diagnostics = Diagnostics()
    with open(path, encoding="utf-8") as handle:
        return check_source(handle.read(), path, options, diagnostics), diagnostics


def report_view(module) -> tuple:
    """What the report shows of a module: its IR, and the source names of the values at its hot lines."""
    hot = module.analyses["liveness"].hot_lines(8)
    return print_module(module), [(line.file, line.line, line.live_vgprs, line.values, line.chain) for line in hot]


@pytest.mark.parametrize("path", SAMPLES, ids=os.path.basename)
def test_lowering_once_for_both_wave_sizes_gives_each_compile(path):
    options = Options(defines={"SPD_LINEAR_SAMPLER": "1"} if path.endswith("spd.hlsl") else {})
    program, diagnostics = checked(path, options)
    together = compile_program_waves(program, options, diagnostics, (32, 64))
    sizes = (program.wave_size,) if program.wave_size else (32, 64)
    assert sorted(together) == sorted(sizes)
    for size in sizes:
        alone = compile_program(checked(path, options)[0], Options(defines=options.defines, wave_size=size),
                                Diagnostics())
        assert together[size].function.wave_size == size
        assert report_view(together[size]) == report_view(alone), size


def test_a_copy_changes_without_its_original():
    path = os.path.join(ROOT, "samples", "spd.hlsl")
    options = Options(wave_size=64)
    program, diagnostics = checked(path, options)
    original = lower_program(program, options, diagnostics)
    before = print_module(original)
    names = dict(original.value_names)
    copy = clone_module(original)
    assert print_module(copy) == before
    blocks, insts = set(map(id, copy.function.blocks)), set(map(id, copy.function.instructions()))
    for inst in copy.function.instructions():  # wired to the copy's own blocks and values only
        assert id(inst.block) in blocks and all(id(target) in blocks for target in inst.targets)
        assert all(id(operand) in insts for operand in inst.operands)
    assert not insts & set(map(id, original.function.instructions()))
    run_passes(copy, middle_end_passes(64, diagnostics), options, diagnostics)
    assert print_module(copy) != before
    assert print_module(original) == before and original.value_names == names
