"""``shc check`` and ``shc compile``: the front end, the middle end, a stage's text."""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from ..diagnostics import EXIT_ERROR
from .common import (
    DefineOption,
    DxcFlags,
    Enable16BitOption,
    EntryOption,
    HlslVersionOption,
    IncludeOption,
    ListingOption,
    NoCacheOption,
    NoWarningOption,
    OutputOption,
    ProfileOption,
    WarningsAsErrorsOption,
    WaveSizeOption,
    app,
    fail,
    parse_defines,
    run_stage,
    write_output,
)
from .listing_views import ListingViews


@app.command("check")
def check_command(
    file: str = typer.Argument(..., help="HLSL source file."),
    entry: str = EntryOption,
    define: Optional[List[str]] = DefineOption,
    include: Optional[List[str]] = IncludeOption,
    emit: Optional[str] = typer.Option(None, "--emit", help="Print a stage's output: 'ast'."),
    profile: str = ProfileOption,
    hlsl_version: str = HlslVersionOption,
    enable_16bit_types: bool = Enable16BitOption,
    warnings_as_errors: bool = WarningsAsErrorsOption,
    no_warnings: Optional[List[str]] = NoWarningOption,
) -> None:
    """Check a shader: silent with exit 0 when it is valid, diagnostics otherwise.

    Runs every stage that can reject a program or warn about it (the front end, lowering
    and the middle end, where barriers in divergent control flow are found), not the back
    ends."""
    from ..frontend import ast
    from ..pipeline import (
        check_file,
        lower_program,
        middle_end_passes,
        run_passes,
    )

    if emit not in (None, "ast"):
        print(f"shc: error: unknown --emit value '{emit}' (expected 'ast')", file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    flags = DxcFlags.parse(profile, hlsl_version, enable_16bit_types, warnings_as_errors, no_warnings)
    options = flags.options(entry=entry, defines=parse_defines(define), include_dirs=list(include or []))

    def work(diagnostics):
        program = check_file(file, options, diagnostics)
        module = lower_program(program, options, diagnostics)
        run_passes(module, middle_end_passes(module.function.wave_size, diagnostics), options, diagnostics)
        return ast.dump(program.unit) if emit == "ast" else None

    text = run_stage(file, work, flags)  # inside: a failure while dumping is an internal error too
    if text is not None:
        print(text)



EMITS = ("ir", "ast", "rdna2", "amdgcn", "llvm")


@app.command("compile")
def compile_command(
    ctx: typer.Context,
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
    livereg: bool = typer.Option(False, "--livereg", help="Print the RDNA2 listing with the VGPRs live at each line."),
    cfg: Optional[str] = typer.Option(None, "--cfg", help="Write the RDNA2 listing's control-flow graph (DOT)."),
    stats: bool = typer.Option(False, "--stats", help="Print the RDNA2 listing's instructions per class."),
    compare_llvm: bool = typer.Option(False, "--compare-llvm",
                                      help="Print shc's and LLVM's instructions per class side by side."),
    profile: str = ProfileOption,
    hlsl_version: str = HlslVersionOption,
    enable_16bit_types: bool = Enable16BitOption,
    output: Optional[str] = OutputOption,
    listing: Optional[str] = ListingOption,
    warnings_as_errors: bool = WarningsAsErrorsOption,
    no_warnings: Optional[List[str]] = NoWarningOption,
    no_cache: bool = NoCacheOption,
) -> None:
    """Compile a shader through the middle end and print a stage's output.

    With -Fo/-o (the output) or -Fc (the RDNA2 listing) nothing is printed on stdout.
    The output of a run that succeeded is kept (compiler/cli/output_cache.py): the same
    command on unchanged sources prints it again without compiling."""
    if target not in (None, "rdna2"):
        fail(f"unknown --target '{target}' (shc targets rdna2)")
    views = ListingViews(livereg, cfg, stats, compare_llvm)
    if views.wanted and (emit not in (None, "rdna2") or passes is not None):
        fail(f"{views.flags()} work on the RDNA2 listing of an HLSL file (not with --emit {emit} or -p)")
    emit = emit or ("rdna2" if target else "ir")
    if emit not in EMITS:
        fail(f"unknown --emit value '{emit}' (expected one of: {', '.join(EMITS)})")
    if wave_size not in (32, 64):
        fail(f"--wave-size must be 32 or 64, not {wave_size}")
    wanted = set(print_after or [])
    known = pass_names() if wanted else []
    for name in sorted(wanted - set(known)):
        fail(f"unknown pass '{name}' for --print-after (passes: {', '.join(known)})")

    def after(name: str, module) -> None:
        if print_after_all or name in wanted:
            print(f"; *** IR after {name} ***")
            print(print_module(module), end="")

    flags = DxcFlags.parse(profile, hlsl_version, enable_16bit_types, warnings_as_errors, no_warnings)
    recording = None
    if (passes is None and emit != "ast" and listing is None and not views.wanted and not wanted
            and not print_after_all and not verify and not no_cache):  # one text out, no file beside it: kept
        from .output_cache import OutputCache

        recording = OutputCache("compile", ctx.params, file)
        if recording.replay(lambda text: write_output(text, output)):
            return
    from ..ir.printer import print_module
    from ..pipeline import compile_file

    if passes is not None:
        module = run_stage(file, lambda diagnostics: run_ir_passes(file, passes, wave_size, verify, diagnostics, after),
                           flags)
    else:
        options = flags.options(entry=entry, defines=parse_defines(define), include_dirs=list(include or []),
                                wave_size=wave_size, verify=verify)
        if emit == "ast":
            from ..frontend import ast
            from ..pipeline import check_file

            write_output(run_stage(file, lambda diagnostics: ast.dump(check_file(file, options, diagnostics).unit),
                                   flags), output)
            return
        module = run_stage(file, lambda diagnostics: compile_file(file, options, diagnostics, after), flags,
                           recording)
    if listing is not None:  # -Fc: the RDNA2 listing, whatever --emit chose
        write_output(run_stage(file, lambda diagnostics: back_end_text(module, "rdna2", source, diagnostics)), listing)
        if output is None:
            return  # as DXC: with -Fc and no -Fo, nothing on stdout
    if views.wanted:  # the listing itself only when --target rdna2 or --emit rdna2 asked for it
        text = run_stage(file, lambda diagnostics: views.render(module, emit == "rdna2", source, diagnostics))
    elif emit == "ir":
        text = print_module(module)
    else:
        text = run_stage(file, lambda diagnostics: back_end_text(module, emit, source, diagnostics),
                         recording=recording)
    write_output(text, output)
    if recording is not None:
        recording.store(text)


def pass_names() -> list[str]:
    """Every stage ``--print-after`` can name, in pipeline order: lowering, then each pass."""
    from ..diagnostics import Diagnostics
    from ..pipeline import middle_end_passes

    return ["lower"] + list(dict.fromkeys(p.name for p in middle_end_passes(32, Diagnostics())))


def back_end_text(module, emit: str, source: bool, diagnostics) -> str:
    """The RDNA2 listing, LLVM's own amdgcn ISA, or the LLVM IR it was given."""
    if emit == "rdna2":
        from ..backend.rdna2.listing import render_listing

        return render_listing(module, source=source, sources=diagnostics.sources).text
    from ..backend.amdgcn.check import cross_check
    from ..diagnostics import Coord

    figures = cross_check(module)
    if not figures.ok:
        diagnostics.fatal(f"LLVM's AMDGPU backend failed: {figures.message}", Coord(module.source_file, 0, 0))
    return figures.llvm_ir if emit == "llvm" else figures.isa


def run_ir_passes(path: str, names: str, wave_size: int, verify: bool, diagnostics, after):
    """``-p``: read an IR text file and run the named passes on it."""
    from ..diagnostics import Coord
    from ..ir.reader import ReadError, read_module
    from ..pipeline import Options, pass_by_name, read_source, run_passes

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
