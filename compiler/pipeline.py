"""The compilation pipeline, stage by stage, in one place.

Each stage takes the previous stage's result and the shared ``Diagnostics``;
a stage that reported errors stops the pipeline at its end (``check()``), so
the user sees every error of the first failing stage.

    preprocess  pcpp with a source map (frontend/preprocess.py)
    parse       PLY LALR grammar into the AST (frontend/parser.py)
    check       scopes, types, overloads (frontend/sema.py, expressions.py),
                entry-point rules (frontend/entry.py)
    lower       the checked AST to SSA IR, every function inlined (ir/from_ast.py)
    passes      the middle end, in the order ``middle_end_passes`` lists them

Every failure the user can cause leaves as ``CompileError`` with diagnostics;
anything else is an internal compiler error.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Callable

from .diagnostics import CompileError, Coord, Diagnostics, nesting_guard
from .diagnostics import read_source  # noqa: F401  (the commands read their main file through here)
from .frontend import ast
from .frontend.language import DEFAULT_HLSL_VERSION, DEFAULT_SHADER_MODEL, Language
from .frontend.parser import Parser
from .frontend.preprocess import preprocess
from .frontend.sema import Program, check
from .ir.clone import clone_module
from .ir.core import Module
from .ir.lower.from_ast import lower
from .ir.verify import verify
from .passes import Pass
from .passes.constant_fold import ConstantFold
from .passes.cse import CommonSubexpressions
from .passes.dead_code import DeadCode
from .passes.dpp_combine import DppCombine
from .passes.liveness import Liveness
from .passes.lower_wave_ops import LowerWaveOps
from .passes.reassociate import Reassociate
from .passes.schedule import Schedule
from .passes.simplify import Simplify
from .passes.uniformity import Uniformity
from .passes.waterfall import Waterfall


@dataclass
class Options:
    entry: str = "main"
    defines: dict[str, str] = field(default_factory=dict)
    include_dirs: list[str] = field(default_factory=list)
    wave_size: int = 32
    verify: bool = False  # run the IR verifier after every pass (tests turn it on)
    shader_model: tuple[int, int] = DEFAULT_SHADER_MODEL  # -T cs_6_x: what the front end accepts
    hlsl_version: int = DEFAULT_HLSL_VERSION  # -HV: 2021 short-circuits ?:, && and ||; 2018 does not

    @property
    def language(self) -> Language:
        return Language(self.shader_model, self.hlsl_version)


def parse_source(text: str, filename: str, options: Options, diagnostics: Diagnostics) -> ast.TranslationUnit:
    """Preprocess and parse; raises ``CompileError`` if either stage reported errors."""
    with nesting_guard(diagnostics, Coord(filename, 0, 0)):
        source = preprocess(text, filename, diagnostics, options.defines, options.include_dirs)
        diagnostics.check()
        unit = Parser(diagnostics).parse(source)
    diagnostics.check()
    return unit


def check_source(text: str, filename: str, options: Options, diagnostics: Diagnostics) -> Program:
    """The front end: preprocess, parse and check ``text``."""
    unit = parse_source(text, filename, options, diagnostics)
    with nesting_guard(diagnostics, Coord(filename, 0, 0)):
        program = check(unit, diagnostics, options.entry, filename, options.language)
    diagnostics.check()
    if program is None:
        raise CompileError(diagnostics.items or [])
    return program


def check_file(path: str, options: Options, diagnostics: Diagnostics) -> Program:
    text = read_source(path, diagnostics)
    return check_source(text, os.path.normpath(path), options, diagnostics)


def middle_end_passes(wave_size: int, diagnostics: Diagnostics) -> list[Pass]:
    """The middle end, in order; one line per pass and why it runs where it does."""
    return [
        ConstantFold(),             # fold what inlining and cbuffer-free arithmetic exposed
        Simplify(),                 # identities; branches on constants become plain branches
        Reassociate(),              # LDS addresses as one shared base + a constant (offset:)
        CommonSubexpressions(),     # inlined helpers recompute the same addresses and swizzles
        DeadCode(),                 # drop what folding and CSE left unused
        Uniformity(diagnostics),    # SGPR vs VGPR classes; barriers in divergent flow are errors
        Waterfall(),                # divergent NonUniformResourceIndex accesses become loops
        LowerWaveOps(wave_size),    # wave intrinsics to DPP / permlane / bpermute / readlane
        DppCombine(),               # fold DPP moves into their VALU consumers (GCNDPPCombine)
        ConstantFold(),             # the ladders introduce constant lane masks and identities
        CommonSubexpressions(),     # each ladder makes its own constants and lane-index math
        DeadCode(),                 # remove moves the combiner made redundant
        Uniformity(),               # recompute on the final CFG for the register classes
        Schedule(),                 # fewer live VGPRs where they limit occupancy (needs the classes)
        Liveness(),                 # register demand per instruction, peak and hot lines
    ]


def pass_by_name(name: str, wave_size: int, diagnostics: Diagnostics) -> Pass:
    for candidate in middle_end_passes(wave_size, diagnostics):
        if candidate.name == name:
            return candidate
    known = ", ".join(dict.fromkeys(p.name for p in middle_end_passes(wave_size, diagnostics)))
    raise KeyError(f"unknown pass '{name}' (known passes: {known})")


def run_passes(module: Module, passes: list[Pass], options: Options, diagnostics: Diagnostics,
               after_pass: Callable[[str, Module], None] | None = None) -> Module:
    """Run ``passes`` over ``module``, verifying between them when ``options.verify`` is set."""
    for each in passes:
        each.run(module)
        if options.verify:
            verify(module.function)
        if after_pass is not None:
            after_pass(each.name, module)
        diagnostics.check()
    return module


def lower_program(program: Program, options: Options, diagnostics: Diagnostics) -> Module:
    """The checked AST as IR; ``[WaveSize(n)]`` overrides the wave-size option."""
    wave_size = program.wave_size or options.wave_size
    with nesting_guard(diagnostics, program.entry.coord):
        module = lower(program, wave_size, diagnostics)
    diagnostics.check()
    if options.verify:
        verify(module.function)
    return module


def compile_source(text: str, filename: str, options: Options, diagnostics: Diagnostics,
                   after_pass: Callable[[str, Module], None] | None = None) -> Module:
    """Front end, lowering and the middle end: the module every back end starts from."""
    program = check_source(text, filename, options, diagnostics)
    return compile_program(program, options, diagnostics, after_pass)


def compile_program(program: Program, options: Options, diagnostics: Diagnostics,
                    after_pass: Callable[[str, Module], None] | None = None) -> Module:
    """Lowering and the middle end of a checked program. Lowering only reads the program, so
    one front-end run serves both wave sizes (``shc regs``)."""
    module = lower_program(program, options, diagnostics)
    if after_pass is not None:
        after_pass("lower", module)
    passes = middle_end_passes(module.function.wave_size, diagnostics)
    return run_passes(module, passes, options, diagnostics, after_pass)


def compile_program_waves(program: Program, options: Options, diagnostics: Diagnostics,
                          sizes: tuple[int, ...]) -> dict[int, Module]:
    """``compile_program`` for each wave size in ``sizes`` (``shc regs``): lowering and the passes
    before ``LowerWaveOps``, which read nothing of the wave size, run once; each size goes on
    from its own copy of that module (``ir/clone.py``). A ``[WaveSize(n)]`` kernel gives n only."""
    module, sizes = lower_for_waves(program, options, diagnostics, sizes)
    modules = {}
    for size in sizes:
        own = module if size == sizes[-1] else clone_module(module)
        modules[size] = finish_wave(own, size, options, diagnostics)
    return modules


def lower_for_waves(program: Program, options: Options, diagnostics: Diagnostics,
                    sizes: tuple[int, ...]) -> tuple[Module, tuple[int, ...]]:
    """The part of ``compile_program_waves`` every wave size shares: the module after the passes
    before ``LowerWaveOps``, and the sizes to go on with (n only for a ``[WaveSize(n)]`` kernel)."""
    if program.wave_size:
        sizes = (program.wave_size,)
    module = lower_program(program, replace(options, wave_size=sizes[0]), diagnostics)
    passes = middle_end_passes(module.function.wave_size, diagnostics)
    run_passes(module, passes[:_first_wave_pass(passes)], options, diagnostics)
    return module, sizes


def finish_wave(module: Module, size: int, options: Options, diagnostics: Diagnostics) -> Module:
    """The passes from ``LowerWaveOps`` on, for wave size ``size``, on ``module`` from
    ``lower_for_waves`` (itself, or a ``clone_module`` of it for each size but one)."""
    module.function.wave_size = size
    passes = middle_end_passes(size, diagnostics)
    return run_passes(module, passes[_first_wave_pass(passes):], options, diagnostics)


def _first_wave_pass(passes: list[Pass]) -> int:
    return next(index for index, each in enumerate(passes) if isinstance(each, LowerWaveOps))


def compile_file(path: str, options: Options, diagnostics: Diagnostics,
                 after_pass: Callable[[str, Module], None] | None = None) -> Module:
    text = read_source(path, diagnostics)
    return compile_source(text, os.path.normpath(path), options, diagnostics, after_pass)
