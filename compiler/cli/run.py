"""``shc run`` and ``shc spd``: kernels run on NumPy data."""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from ..diagnostics import EXIT_ERROR, EXIT_INTERNAL
from .common import (
    DefineOption,
    EntryOption,
    IncludeOption,
    WaveSizeOption,
    app,
    fail,
    internal_error_line,
    parse_defines,
)
from .progress import Progress, QuietOption


@app.command("run")
def run_command(
    file: str = typer.Argument(..., help="HLSL source file."),
    groups: str = typer.Option("1,1,1", "--groups", help="Workgroups to dispatch: X,Y,Z."),
    input: Optional[List[str]] = typer.Option(
        None, "--input", metavar="NAME=FILE", help="Bind a resource: a .npy array, or an image (PNG, ...)."),
    output: Optional[List[str]] = typer.Option(
        None, "--output", metavar="NAME=FILE|DIMS[:DTYPE]",
        help="NAME=FILE: save after the run (zeros unless an --input); NAME=512x512x4:float32: create zeros."),
    save: Optional[List[str]] = typer.Option(
        None, "--save", metavar="NAME=FILE", help="Save a resource after the run: .npy, or .png for a 2-D texture."),
    constant: Optional[List[str]] = typer.Option(
        None, "--set", metavar="NAME=VALUE",
        help="Set a constant: 2, a vector 1,2,3, any field's numbers in order, or a part: NAME.member / NAME\\[i]."),
    sampler: Optional[List[str]] = typer.Option(
        None, "--sampler", metavar="NAME=FILTER,ADDRESS",
        help="Bind a sampler: point|linear, clamp|wrap|mirror|border (then R,G,B,A)."),
    entry: str = EntryOption,
    define: Optional[List[str]] = DefineOption,
    include: Optional[List[str]] = IncludeOption,
    wave_size: int = WaveSizeOption,
    timeout: float = typer.Option(10.0, "--timeout", min=0.0, show_default="10 s",
                                  help="Stop the kernel after this many seconds (0: no limit)."),
    threads: Optional[int] = typer.Option(None, "--threads", min=1, show_default="one per core",
                                          help="Host threads that run workgroups."),
    quiet: bool = QuietOption,
) -> None:
    """Run a kernel on NumPy data (.npy files, images) and print the dispatch statistics."""
    from ...runtime import command
    from ...runtime.kernel import KernelCompileError

    if wave_size not in (32, 64):
        fail(f"--wave-size must be 32 or 64, not {wave_size}")
    try:
        with Progress("running", quiet=quiet, delay=1.0) as progress:
            report = command.run(file, groups, input, output, constant, entry, parse_defines(define),
                                 list(include or []), wave_size, timeout, threads, sampler, save, progress)
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
    quiet: bool = QuietOption,
) -> None:
    """Build a mip chain with the single pass downsampler (samples/spd.hlsl): every mip, a contact sheet."""
    from ...runtime.kernel import KernelCompileError
    from ...runtime.spd_command import SpdInputError, command

    if wave_size not in (32, 64):
        fail(f"--wave-size must be 32 or 64, not {wave_size}")
    try:
        with Progress("building the mip chain", quiet=quiet) as progress:
            report = command(input, outdir, mips, wave_ops, linear_sampler, packed, wave_size, progress)
    except KernelCompileError as failure:
        print(str(failure), file=sys.stderr)
        raise typer.Exit(EXIT_ERROR)
    except (SpdInputError, OSError) as failure:
        fail(str(failure))
    except Exception as failure:  # an internal error must never show a traceback
        print(internal_error_line(input, failure), file=sys.stderr)
        raise typer.Exit(EXIT_INTERNAL)
    print(report)
