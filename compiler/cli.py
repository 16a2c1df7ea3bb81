"""The ``shc`` command line.

Commands import the compiler lazily, so ``shc --help`` starts fast. Every
diagnostic goes to stderr in ``file:line:col: error: ...`` form; a failure
inside shc itself prints one ``internal compiler error`` line and exits 70.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import List, Optional

import typer

from .diagnostics import EXIT_ERROR, EXIT_INTERNAL

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="shc: a compiler for HLSL compute shaders, targeting a modeled AMD RDNA2 GPU.",
)

EntryOption = typer.Option("main", "-E", "--entry", help="Entry point function.")
DefineOption = typer.Option(None, "-D", "--define", help="Define a macro: NAME or NAME=VALUE.")
IncludeOption = typer.Option(None, "-I", "--include", help="Add a directory to the include search path.")


def print_version(value: bool) -> None:
    if value:
        from .. import __version__

        print(f"shc {__version__}")
        raise typer.Exit(0)


@app.callback()
def root(
    version: bool = typer.Option(False, "--version", help="Print shc's version and exit.",
                                 callback=print_version, is_eager=True),
) -> None:
    """shc: a compiler for HLSL compute shaders, targeting a modeled AMD RDNA2 GPU."""


def parse_defines(values: Optional[List[str]]) -> dict[str, str]:
    defines: dict[str, str] = {}
    for value in values or []:
        name, _, text = value.partition("=")
        defines[name.strip()] = text if "=" in value else "1"
    return defines


def run_stage(path: str, work):
    """Run ``work(diagnostics)``; print diagnostics; turn failures into exit codes."""
    from .diagnostics import CompileError, Coord, Diagnostics, Unsupported, nesting_guard

    diagnostics = Diagnostics()
    try:
        with nesting_guard(diagnostics, Coord(path, 0, 0)):
            result = work(diagnostics)
    except CompileError:
        print(diagnostics.render(), file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    except Unsupported as failure:  # a known gap (a back end's selection): an error, not an ICE
        diagnostics.error(str(failure), failure.coord)
        print(diagnostics.render(), file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    except (KeyboardInterrupt, typer.Exit, BrokenPipeError):
        raise
    except Exception as failure:  # an internal compiler error must never show a traceback
        print(internal_error_line(path, failure), file=sys.stderr)
        raise typer.Exit(EXIT_INTERNAL)
    if diagnostics.items:
        print(diagnostics.render(), file=sys.stderr)
    return result


def internal_error_line(path: str, failure: BaseException) -> str:
    """One line: where in the shader (if known), what failed, and where in shc."""
    coord = getattr(failure, "shc_coord", None)
    where = str(coord) if coord is not None and coord.line > 0 else path
    frames = traceback.extract_tb(failure.__traceback__)
    inside = f" (in {os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
    detail = " ".join(str(failure).split())
    detail = f": {detail}" if detail else ""
    return f"{where}: internal compiler error: {type(failure).__name__}{detail}{inside}"


@app.command("check")
def check_command(
    file: str = typer.Argument(..., help="HLSL source file."),
    entry: str = EntryOption,
    define: Optional[List[str]] = DefineOption,
    include: Optional[List[str]] = IncludeOption,
    emit: Optional[str] = typer.Option(None, "--emit", help="Print a stage's output: 'ast'."),
) -> None:
    """Check a shader: silent with exit 0 when it is valid, diagnostics otherwise.

    Runs every stage that can reject a program or warn about it (the front end, lowering
    and the middle end, where barriers in divergent control flow are found), not the back
    ends."""
    from .frontend import ast
    from .pipeline import Options, check_file, lower_program, middle_end_passes, run_passes

    if emit not in (None, "ast"):
        print(f"shc: error: unknown --emit value '{emit}' (expected 'ast')", file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    options = Options(entry=entry, defines=parse_defines(define), include_dirs=list(include or []))

    def work(diagnostics):
        program = check_file(file, options, diagnostics)
        module = lower_program(program, options, diagnostics)
        run_passes(module, middle_end_passes(module.function.wave_size, diagnostics), options, diagnostics)
        return ast.dump(program.unit) if emit == "ast" else None

    text = run_stage(file, work)  # inside: a failure while dumping is an internal error too
    if text is not None:
        print(text)


WaveSizeOption = typer.Option(32, "--wave-size", help="Wave size, 32 or 64 ([WaveSize(n)] overrides it).")
EMITS = ("ir", "ast", "rdna2", "amdgcn", "llvm")


@app.command("compile")
def compile_command(
    file: str = typer.Argument(..., help="HLSL source file, or an IR text file (.ir) with -p."),
    entry: str = EntryOption,
    define: Optional[List[str]] = DefineOption,
    include: Optional[List[str]] = IncludeOption,
    wave_size: int = WaveSizeOption,
    emit: Optional[str] = typer.Option(None, "--emit", help="What to print: " + ", ".join(EMITS)
                                       + " (default: ir; rdna2 with --target rdna2)."),
    target: Optional[str] = typer.Option(None, "--target", help="Code generation target: rdna2."),
    source: bool = typer.Option(False, "--source", help="Interleave the HLSL source lines in the listing."),
    print_after_all: bool = typer.Option(False, "--print-after-all", help="Print the IR after every pass."),
    print_after: Optional[List[str]] = typer.Option(None, "--print-after", help="Print the IR after this pass."),
    passes: Optional[str] = typer.Option(None, "-p", "--passes",
                                         help="Run these comma-separated passes on an IR file instead."),
    verify: bool = typer.Option(False, "--verify", help="Run the IR verifier after every pass."),
) -> None:
    """Compile a shader through the middle end and print a stage's output."""
    from .ir.printer import print_module
    from .pipeline import Options, compile_file

    if target not in (None, "rdna2"):
        fail(f"unknown --target '{target}' (shc targets rdna2)")
    emit = emit or ("rdna2" if target else "ir")
    if emit not in EMITS:
        fail(f"unknown --emit value '{emit}' (expected one of: {', '.join(EMITS)})")
    if wave_size not in (32, 64):
        fail(f"--wave-size must be 32 or 64, not {wave_size}")
    wanted = set(print_after or [])
    known = pass_names()
    for name in sorted(wanted - set(known)):
        fail(f"unknown pass '{name}' for --print-after (passes: {', '.join(known)})")

    def after(name: str, module) -> None:
        if print_after_all or name in wanted:
            print(f"; *** IR after {name} ***")
            print(print_module(module), end="")

    if passes is not None:
        module = run_stage(file, lambda diagnostics: run_ir_passes(file, passes, wave_size, verify, diagnostics, after))
    else:
        options = Options(entry=entry, defines=parse_defines(define), include_dirs=list(include or []),
                          wave_size=wave_size, verify=verify)
        if emit == "ast":
            from .frontend import ast
            from .pipeline import check_file

            print(run_stage(file, lambda diagnostics: ast.dump(check_file(file, options, diagnostics).unit)))
            return
        module = run_stage(file, lambda diagnostics: compile_file(file, options, diagnostics, after))
    if emit == "ir":
        print(print_module(module), end="")
    else:
        print(run_stage(file, lambda diagnostics: back_end_text(module, emit, source, diagnostics)), end="")


def pass_names() -> list[str]:
    """Every stage ``--print-after`` can name, in pipeline order: lowering, then each pass."""
    from .diagnostics import Diagnostics
    from .pipeline import middle_end_passes

    return ["lower"] + list(dict.fromkeys(p.name for p in middle_end_passes(32, Diagnostics())))


def back_end_text(module, emit: str, source: bool, diagnostics) -> str:
    """The RDNA2 listing, LLVM's own amdgcn ISA, or the LLVM IR it was given."""
    if emit == "rdna2":
        from .backend.rdna2.listing import render_listing

        return render_listing(module, source=source, sources=diagnostics.sources).text
    from .backend.amdgcn.check import cross_check
    from .diagnostics import Coord

    figures = cross_check(module)
    if not figures.ok:
        diagnostics.fatal(f"LLVM's AMDGPU backend failed: {figures.message}", Coord(module.source_file, 0, 0))
    return figures.llvm_ir if emit == "llvm" else figures.isa


@app.command("regs")
def regs_command(
    file: str = typer.Argument(..., help="HLSL source file."),
    entry: str = EntryOption,
    define: Optional[List[str]] = DefineOption,
    include: Optional[List[str]] = IncludeOption,
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    lines: int = typer.Option(5, "--lines", help="How many hot source lines to list."),
    llvm: bool = typer.Option(True, "--llvm/--no-llvm", help="Cross-check with LLVM's AMDGPU backend."),
    llvm_demand: bool = typer.Option(
        False, "--llvm-demand",
        help="Also search the fewest VGPRs LLVM fits the kernel in without spilling (several LLVM compiles)."),
) -> None:
    """Register and occupancy report for wave32 and wave64, cross-checked against LLVM."""
    import json

    from .pipeline import Options, read_source
    from .report import build_report, render_table

    options = Options(entry=entry, defines=parse_defines(define), include_dirs=list(include or []))

    def work(diagnostics):
        text = read_source(file, diagnostics)
        return build_report(text, os.path.normpath(file), options, diagnostics, lines, llvm or llvm_demand,
                            llvm_demand)

    report = run_stage(file, work)
    if as_json:
        print(json.dumps({"kernels": [report.as_dict()]}, indent=1))
    else:
        print(render_table(report))


def run_ir_passes(path: str, names: str, wave_size: int, verify: bool, diagnostics, after):
    """``-p``: read an IR text file and run the named passes on it."""
    from .diagnostics import Coord
    from .ir.reader import ReadError, read_module
    from .pipeline import Options, pass_by_name, read_source, run_passes

    text = read_source(path, diagnostics)
    try:
        module = read_module(text)
    except ReadError as failure:
        diagnostics.fatal(f"invalid IR: {failure}", Coord(path, 0, 0))
    chosen = []
    for name in [n.strip() for n in names.split(",") if n.strip()]:
        try:
            chosen.append(pass_by_name(name, wave_size, diagnostics))
        except KeyError as failure:
            diagnostics.fatal(str(failure.args[0]), Coord(path, 0, 0))
    return run_passes(module, chosen, Options(wave_size=wave_size, verify=verify), diagnostics, after)


@app.command("run")
def run_command(
    file: str = typer.Argument(..., help="HLSL source file."),
    groups: str = typer.Option("1,1,1", "--groups", help="Workgroups to dispatch: X,Y,Z."),
    input: Optional[List[str]] = typer.Option(None, "--input", help="Bind a resource: NAME=FILE.npy."),
    output: Optional[List[str]] = typer.Option(None, "--output", help="Save a resource after the run: NAME=FILE.npy."),
    constant: Optional[List[str]] = typer.Option(None, "--set", help="Set a constant: NAME=VALUE (a vector: 1,2,3)."),
    entry: str = EntryOption,
    define: Optional[List[str]] = DefineOption,
    include: Optional[List[str]] = IncludeOption,
    wave_size: int = WaveSizeOption,
    timeout: float = typer.Option(10.0, "--timeout", help="Stop the kernel after this many seconds."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Host threads (default: one per core)."),
) -> None:
    """Run a kernel on NumPy data (.npy files) and print the dispatch statistics."""
    from ..runtime import command
    from ..runtime.kernel import KernelCompileError

    try:
        report = command.run(file, groups, input, output, constant, entry, parse_defines(define),
                             list(include or []), wave_size, timeout, threads)
    except KernelCompileError as failure:
        print(str(failure), file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    except command.USER_ERRORS as failure:
        fail(str(failure))
    except Exception as failure:  # an internal error must never show a traceback
        print(internal_error_line(file, failure), file=sys.stderr)
        raise typer.Exit(EXIT_INTERNAL)
    print(report)


@app.command("spd")
def spd_command(
    input: str = typer.Argument(..., help="Image file (PNG, TIFF, ... anything Pillow opens) or a .npy array."),
    outdir: str = typer.Option(..., "-o", "--output", help="Directory for the mips and the contact sheet."),
    mips: Optional[int] = typer.Option(None, "--mips", help="Mips to build (default: the full chain, at most 12)."),
    wave_ops: bool = typer.Option(True, "--wave-ops/--no-wave-ops", help="Quad wave ops (default) or LDS only."),
    linear_sampler: bool = typer.Option(False, "--linear-sampler", help="One bilinear fetch per 2x2 source block."),
    packed: bool = typer.Option(False, "--packed", help="The packed FP16 path (A_HALF)."),
    wave_size: int = typer.Option(32, "--wave-size", help="Wave size, 32 or 64."),
) -> None:
    """Build a mip chain with the single pass downsampler (samples/spd.hlsl): every mip, a contact sheet."""
    from ..runtime.spd_command import SpdInputError, command
    from ..runtime.kernel import KernelCompileError

    if wave_size not in (32, 64):
        fail(f"--wave-size must be 32 or 64, not {wave_size}")
    try:
        report = command(input, outdir, mips, wave_ops, linear_sampler, packed, wave_size)
    except KernelCompileError as failure:
        print(str(failure), file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    except (SpdInputError, OSError) as failure:
        fail(str(failure))
    except Exception as failure:  # an internal error must never show a traceback
        print(internal_error_line(input, failure), file=sys.stderr)
        raise typer.Exit(EXIT_INTERNAL)
    print(report)


def fail(message: str) -> None:
    print(f"shc: error: {message}", file=sys.stderr)
    raise typer.Exit(EXIT_ERROR)


def main() -> None:
    try:
        app()
    except BrokenPipeError:  # `shc ... | head`: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)


if __name__ == "__main__":
    main()
