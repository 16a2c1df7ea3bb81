"""Shared by the test_from_ast_*.py files: lower HLSL to IR, check its structured SSA
shape, print it without coordinates, and run it on the IR interpreter."""

from pathlib import Path
from textwrap import dedent

from shc.compiler.diagnostics import Diagnostics
from shc.compiler.frontend import hlsl_types as T
from shc.compiler.ir.lower.from_ast import lower
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.ir.ops import Op
from shc.compiler.ir.printer import print_module
from shc.compiler.ir.verify import verify
from shc.compiler.pipeline import Options, check_source

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.hlsl"))


def lower_source(source: str, defines: dict | None = None, wave_size: int = 32, filename: str = "kernel.hlsl"):
    diagnostics = Diagnostics()
    program = check_source(dedent(source), filename, Options(defines=defines or {}), diagnostics)
    module = lower(program, wave_size, diagnostics)
    assert diagnostics.error_count == 0, diagnostics.render()
    check_structure(module.function)
    return module


def ir(source: str) -> str:
    return print_module(lower_source(source), show_coords=False).strip()


def check_structure(function) -> None:
    """verify() (one terminator per block, phis match predecessors, operands dominate their
    uses) plus the structured-control-flow shape: every conditional branch or switch ends a
    region header, a loop's continue block, or is a conditional break (a loop condition that
    needed blocks of its own); every loop's continue block branches back."""
    verify(function)
    continues = {block.cont for block in function.blocks if block.kind == "loop"}
    merges = {block.merge for block in function.blocks if block.kind == "loop"}
    for block in function.blocks:
        terminators = [inst for inst in block.insts if inst.is_terminator]
        assert len(terminators) == 1 and block.insts[-1] is terminators[0], block.name
        if terminators[0].op in (Op.COND_BR, Op.SWITCH):
            structured = block.kind is not None or block in continues or merges & set(block.successors)
            assert structured, f"unstructured branch in ^{block.name}"
        if block.kind == "loop":
            assert block in block.cont.successors, f"^{block.cont.name} does not branch back"
    assert sum(inst.op is Op.RETURN for inst in function.instructions()) == 1
    for inst in function.instructions():
        assert operands_fit(inst), f"{inst.op.value} {inst.type} on {[str(o.type) for o in inst.operands]}"


SAME_TYPE = {Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.REM, Op.NEG, Op.FMA, Op.MIN, Op.MAX, Op.ABS, Op.AND, Op.OR,
             Op.XOR, Op.NOT, Op.SHL, Op.SHR, Op.PHI, Op.WAVE_ACTIVE, Op.WAVE_PREFIX, Op.QUAD_READ}


def operands_fit(inst) -> bool:
    """Every operand has the type its op needs: conversions and splats are explicit."""
    types = [operand.type for operand in inst.operands]
    if inst.op in SAME_TYPE:
        return all(t == inst.type for t in types)
    if inst.op in (Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE):
        return types[0] == types[1] and inst.type == T.with_element(types[0], T.BOOL)
    if inst.op is Op.SELECT:
        return types[1] == types[2] == inst.type and types[0] in (T.BOOL, T.with_element(inst.type, T.BOOL))
    if inst.op is Op.CONSTRUCT and isinstance(inst.type, T.VectorType):
        return sum(getattr(t, "size", 1) for t in types) == inst.type.size \
            and all(t.element == inst.type.element for t in types)
    if inst.op is Op.COND_BR:
        return types == [T.BOOL]
    if inst.op in (Op.LDS_LOAD, Op.LDS_STORE, Op.SCRATCH_LOAD, Op.SCRATCH_STORE, Op.LDS_ATOMIC):
        return types[0] == T.UINT
    return True


def run(source: str, buffers: dict, wave_size: int = 32, **options):
    return run_wave(lower_source(source, wave_size=wave_size), wave_size=wave_size, buffers=buffers, **options)
