"""``shc regs``: the register and occupancy report."""

from __future__ import annotations

import os
from typing import List, Optional

import typer

from .common import (
    DefineOption,
    EntryOption,
    IncludeOption,
    app,
    parse_defines,
    run_stage,
)


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

    from ..pipeline import Options, read_source
    from ..report import build_report, render_table

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
