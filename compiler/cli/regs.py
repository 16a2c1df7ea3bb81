"""``shc regs``: the register and occupancy report of one kernel, or a sweep (``compiler/sweep.py``)."""

from __future__ import annotations

import os
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
    NoCacheOption,
    NoWarningOption,
    OutputOption,
    ProfileOption,
    WarningsAsErrorsOption,
    app,
    fail,
    output_to,
    parse_defines,
    run_stage,
)
from .progress import Progress, QuietOption


@app.command("regs")
def regs_command(
    ctx: typer.Context,
    files: List[str] = typer.Argument(..., help="HLSL source files, or directories (their *.hlsl files).",
                                      metavar="FILES_OR_DIRS..."),
    entry: str = EntryOption,
    define: Optional[List[str]] = DefineOption,
    include: Optional[List[str]] = IncludeOption,
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON (a sweep: a list of rows)."),
    as_csv: bool = typer.Option(False, "--csv", help="Print one CSV row per file, define set and wave size."),
    lines: int = typer.Option(5, "--lines", help="How many hot source lines to list (one kernel)."),
    llvm: Optional[bool] = typer.Option(
        None, "--llvm/--no-llvm", show_default="on for one kernel, off in a sweep",
        help="Cross-check with LLVM's AMDGPU backend."),
    llvm_demand: bool = typer.Option(
        False, "--llvm-demand",
        help="Also search the fewest VGPRs LLVM fits the kernel in without spilling (several LLVM compiles)."),
    permute: Optional[List[str]] = typer.Option(
        None, "--permute", metavar="NAME=V1,V2",
        help="Sweep a macro over these values (every combination of every --permute; '-' leaves it undefined)."),
    wave_sizes: str = typer.Option("32,64", "--wave-size", metavar="32,64", help="Wave sizes to report."),
    jobs: int = typer.Option(1, "-j", "--jobs", min=1, help="Compile a sweep in this many processes."),
    baseline: Optional[str] = typer.Option(
        None, "--baseline", metavar="OLD.json",
        help="Compare with a sweep saved by --json: exit 1 on more VGPRs allocated or lower occupancy."),
    scheduler: Optional[str] = typer.Option(
        None, "--scheduler", metavar="ADDRESS",
        help="Run the sweep on a Dask distributed cluster (pip install 'shc\\[distributed]')."),
    quiet: bool = QuietOption,
    profile: str = ProfileOption,
    hlsl_version: str = HlslVersionOption,
    enable_16bit_types: bool = Enable16BitOption,
    output: Optional[str] = OutputOption,
    warnings_as_errors: bool = WarningsAsErrorsOption,
    no_warnings: Optional[List[str]] = NoWarningOption,
    no_cache: bool = NoCacheOption,
) -> None:
    """Register and occupancy report: one kernel in detail, or a sweep over files x defines x wave sizes.

    One file without --permute prints the detailed report (hot lines, LLVM's figures). Several
    files, directories, --permute, --baseline or --scheduler make a sweep: one row per file,
    define combination and wave size, in a table, --json or --csv. One kernel's report is
    kept as ``shc compile`` keeps its output (compiler/cli/output_cache.py)."""
    flags = DxcFlags.parse(profile, hlsl_version, enable_16bit_types, warnings_as_errors, no_warnings)
    sizes = parse_wave_sizes(wave_sizes)
    if as_json and as_csv:
        fail("--json and --csv are two output formats: choose one")
    sweep = (len(files) != 1 or os.path.isdir(files[0]) or bool(permute) or baseline is not None
             or scheduler is not None)
    if not sweep and not as_csv:
        from .output_cache import OutputCache

        recording = None if no_cache else OutputCache("regs", ctx.params, files[0])
        with output_to(output):
            if recording is None or not recording.replay(print):
                print(single_report(files[0], entry, define, include, as_json, lines,
                                    True if llvm is None else llvm, llvm_demand, sizes, quiet, flags, recording))
        return
    if llvm_demand:
        fail("--llvm-demand searches one kernel at a time: run shc regs FILE --llvm-demand")
    from ..sweep import SweepError

    try:
        with output_to(output):
            failed = run_sweep_command(files, entry, parse_defines(define), list(include or []), permute, sizes,
                                       bool(llvm), jobs, as_json, as_csv, baseline, scheduler, quiet, flags)
    except SweepError as failure:
        fail(str(failure))
    if failed:
        raise typer.Exit(EXIT_ERROR)


def parse_wave_sizes(text: str) -> tuple[int, ...]:
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if not parts or any(part not in ("32", "64") for part in parts):
        fail(f"--wave-size takes 32, 64 or 32,64, not '{text}'")
    return tuple(sorted({int(part) for part in parts}))


def single_report(file: str, entry: str, define, include, as_json: bool, lines: int, llvm: bool,
                  llvm_demand: bool, sizes: tuple[int, ...], quiet: bool, flags: DxcFlags = DxcFlags(),
                  recording=None) -> str:
    """The detailed report of one kernel (today's ``shc regs FILE``), as text; a ``recording``
    (output_cache.OutputCache) keeps it."""
    import json

    from ..pipeline import read_source
    from ..report import build_report, render_table

    options = flags.options(entry=entry, defines=parse_defines(define), include_dirs=list(include or []))

    def work(diagnostics):
        text = read_source(file, diagnostics)
        return build_report(text, os.path.normpath(file), options, diagnostics, lines, llvm or llvm_demand,
                            llvm_demand, fork=True)  # wave64 in a second process beside wave32

    what = "searching LLVM's VGPR demand" if llvm_demand else "compiling"
    with Progress(f"{what} {file}", quiet=quiet):
        report = run_stage(file, work, flags, recording)
    chosen = {size: wave for size, wave in report.waves.items() if size in sizes}
    report.waves = chosen or report.waves  # a [WaveSize(n)] kernel keeps its one size
    text = json.dumps({"kernels": [report.as_dict()]}, indent=1) if as_json else render_table(report)
    if recording is not None and not _llvm_failed(report):
        recording.store(text)
    return text


def _llvm_failed(report) -> bool:
    """Whether LLVM's cross-check failed for a wave size (a timeout may not happen again: not kept)."""
    return any(wave.llvm is not None and not wave.llvm.ok for wave in report.waves.values())


def run_sweep_command(files, entry, defines, include_dirs, permute, sizes, llvm, jobs, as_json, as_csv,
                      baseline, scheduler, quiet, flags) -> bool:
    """Run the sweep, print its rows and the baseline comparison; True when something failed."""
    import csv
    import json

    from ..sweep import columns, cell, compare, describe, expand_paths, load_rows, permutations, plan, \
        render_rows, run_sweep

    old_rows = load_rows(baseline) if baseline is not None else None  # a bad baseline fails before the work
    jobs_list = plan(expand_paths(files), permutations(permute), sizes, entry, defines, include_dirs, llvm,
                     flags.shader_model, flags.hlsl_version)
    where = f" on {scheduler}" if scheduler else f" in {jobs} processes" if jobs > 1 else ""
    with Progress(f"compiling{where}", total=len(jobs_list), quiet=quiet) as progress:
        rows = run_sweep(jobs_list, jobs, scheduler, progress.advance)
    if as_json:
        print(json.dumps(rows, indent=1))
    elif as_csv:
        chosen = columns(rows)
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow([title for title, _ in chosen])
        writer.writerows([cell(row, key) for _, key in chosen] for row in rows)
    else:
        print(render_rows(rows))
    failures = [row for row in rows if row["error"] is not None]
    for row in failures:
        print(f"{describe(row)}: failed to compile\n{row['error']}", file=sys.stderr)
    for row in rows:
        if row.get("llvm_error"):
            print(f"{describe(row)}: LLVM cross-check failed: {row['llvm_error']}", file=sys.stderr)
    regressions = []
    if old_rows is not None:
        comparison = compare(old_rows, rows)
        regressions = comparison.regressions
        for note in comparison.notes:
            print(f"note: {note}", file=sys.stderr)
        for regression in regressions:
            print(f"regression: {regression}", file=sys.stderr)
        if not regressions:
            print(f"no regressions against {baseline} ({len(rows)} rows)", file=sys.stderr)
    return bool(failures or regressions)
