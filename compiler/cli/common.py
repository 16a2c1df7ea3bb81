"""What every ``shc`` command shares: the app, the common options, running a stage.

Every diagnostic goes to stderr in ``file:line:col: error: ...`` form; a failure
inside shc itself prints one ``internal compiler error`` line and exits 70.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import List, Optional

import typer

from ..diagnostics import EXIT_ERROR, EXIT_INTERNAL

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="shc: a compiler for HLSL compute shaders, targeting a modeled AMD RDNA2 GPU.",
)

EntryOption = typer.Option("main", "-E", "--entry", help="Entry point function.")
DefineOption = typer.Option(None, "-D", "--define", help="Define a macro: NAME or NAME=VALUE.")
IncludeOption = typer.Option(None, "-I", "--include", help="Add a directory to the include search path.")
WaveSizeOption = typer.Option(32, "--wave-size", help="Wave size, 32 or 64 ([WaveSize(n)] overrides it).")


def print_version(value: bool) -> None:
    if value:
        from ... import __version__

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
    from ..diagnostics import (
        CompileError,
        Coord,
        Diagnostics,
        Unsupported,
        nesting_guard,
    )

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


def fail(message: str) -> None:
    print(f"shc: error: {message}", file=sys.stderr)
    raise typer.Exit(EXIT_ERROR)
