"""What every ``shc`` command shares: the app, the common options, running a stage.

Every diagnostic goes to stderr in ``file:line:col: error: ...`` form; a failure
inside shc itself prints one ``internal compiler error`` line and exits 70.

``check``, ``compile`` and ``regs`` also take DXC's spellings (``-T cs_6_6``, ``-HV 2021``,
``-enable-16bit-types``, ``-Fo``/``-o``, ``-Fc``, ``-WX``, ``-Wno-<group>``); ``DxcFlags``
collects them. Click cannot declare an option prefix, so the app's group turns each
``-Wno-<group>`` into ``-Wno=<group>`` before parsing (``normalise_warning_flags``).
"""

from __future__ import annotations

import os
import sys
import traceback
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass
from typing import List, Optional

import typer
from typer.core import TyperGroup

from ..diagnostics import EXIT_ERROR, EXIT_INTERNAL, WARNING_GROUPS


def normalise_warning_flags(args: list[str]) -> list[str]:
    """``-Wno-<group>`` as ``-Wno=<group>`` (one option with a value); nothing after ``--``."""
    if "--" in args:
        end = args.index("--")
        return normalise_warning_flags(args[:end]) + args[end:]
    return ["-Wno=" + arg[len("-Wno-"):] if arg.startswith("-Wno-") else arg for arg in args]


class ShcGroup(TyperGroup):
    def parse_args(self, ctx, args: list[str]) -> list[str]:
        return super().parse_args(ctx, normalise_warning_flags(args))


app = typer.Typer(
    cls=ShcGroup,
    add_completion=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="shc: a compiler for HLSL compute shaders, targeting a modeled AMD RDNA2 GPU.",
)

EntryOption = typer.Option("main", "-E", "--entry", help="Entry point function.")
DefineOption = typer.Option(None, "-D", "--define", help="Define a macro: NAME or NAME=VALUE.")
IncludeOption = typer.Option(None, "-I", "--include", help="Add a directory to the include search path.")
WaveSizeOption = typer.Option(32, "--wave-size", help="Wave size, 32 or 64 ([WaveSize(n)] overrides it).")

# DXC's flags (dxc -help spells them so); DxcFlags.parse checks them.
ProfileOption = typer.Option("cs_6_6", "-T", "--profile", metavar="cs_6_x",
                             help="Target profile: cs_6_0 to cs_6_8; the shader model gates features as in DXC.")
HlslVersionOption = typer.Option("2021", "-HV", metavar="2018|2021",
                                 help="HLSL version: 2021 short-circuits &&, || and ?: (scalars only; "
                                      "and/or/select for vectors); 2018 evaluates them element-wise.")
Enable16BitOption = typer.Option(False, "-enable-16bit-types",
                                 help="Native 16-bit types (always on from cs_6_2, as if given; below it, "
                                      "an error as in DXC).")
OutputOption = typer.Option(None, "-Fo", "-o", metavar="FILE", help="Write the output to FILE instead of stdout.")
ListingOption = typer.Option(None, "-Fc", metavar="FILE", help="Write the RDNA2 listing to FILE.")
WarningsAsErrorsOption = typer.Option(False, "-WX", help="Treat warnings as errors. -Wno-<group> silences a "
                                      "group: " + ", ".join(sorted(WARNING_GROUPS)) + ".")
NoWarningOption = typer.Option(None, "-Wno", hidden=True, help="-Wno-<group>: silence a warning group.")
NoCacheOption = typer.Option(False, "--no-cache", help="Compile even if this command's output on these sources "
                             "is kept, and keep nothing (the output cache, compiler/cli/output_cache.py).")


@dataclass(frozen=True)
class DxcFlags:
    """The DXC-style flags of one command, checked."""

    shader_model: tuple[int, int] = (6, 6)
    hlsl_version: int = 2021
    warnings_as_errors: bool = False
    disabled_warnings: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, profile: str, hlsl_version: str, enable_16bit_types: bool, warnings_as_errors: bool,
              no_warnings: Optional[List[str]]) -> "DxcFlags":
        """Check the flags; a bad one is ``shc: error:`` (exit 1), an unknown -Wno group a warning."""
        from ..frontend.language import SIXTEEN_BIT_MODEL, ProfileError, parse_hlsl_version, parse_profile

        try:
            model, version = parse_profile(profile), parse_hlsl_version(hlsl_version)
        except ProfileError as failure:
            fail(str(failure))
        if enable_16bit_types and model < SIXTEEN_BIT_MODEL:
            fail(f"-enable-16bit-types requires shader model 6.2 or later (-T {profile} was given)")
        groups = frozenset(no_warnings or [])
        for name in sorted(groups - WARNING_GROUPS):
            print(f"shc: warning: unknown warning option '-Wno-{name}' [-Wunknown-warning-option]", file=sys.stderr)
            if warnings_as_errors:
                raise typer.Exit(EXIT_ERROR)
        return cls(model, version, warnings_as_errors, groups)

    @property
    def default_language(self) -> bool:
        """True for shc's default cs_6_6 and HLSL 2021."""
        return (self.shader_model, self.hlsl_version) == (DxcFlags.shader_model, DxcFlags.hlsl_version)

    def options(self, **fields):
        """``pipeline.Options`` for these flags and ``fields``."""
        from ..pipeline import Options

        return Options(shader_model=self.shader_model, hlsl_version=self.hlsl_version, **fields)


@contextmanager
def output_to(path: Optional[str]):
    """Send what is printed inside to the file ``path`` (-Fo), or leave it on stdout."""
    if path is None:
        yield
        return
    try:
        handle = open(path, "w", encoding="utf-8")
    except OSError as failure:
        fail(f"cannot write '{path}': {failure.strerror or failure}")
    with handle, redirect_stdout(handle):
        yield


def write_output(text: str, path: Optional[str]) -> None:
    """``text`` to the file ``path`` (-Fo, -Fc), or to stdout when there is none, ending in a newline."""
    text = text if not text or text.endswith("\n") else text + "\n"
    if path is None:
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as failure:
        fail(f"cannot write '{path}': {failure.strerror or failure}")


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
    if os.environ.get("SHC_OPT"):  # checked before any work, not when a kernel first compiles
        from ..backend.host.options import opt_level

        try:
            opt_level()
        except ValueError as failure:
            fail(str(failure))
    if os.environ.get("SHC_TIER_UP"):  # the same for the cold-kernel child's switch (runtime/tier_up.py)
        from ...runtime.tier_up import tier_up_allowed

        try:
            tier_up_allowed()
        except ValueError as failure:
            fail(str(failure))


def parse_defines(values: Optional[List[str]]) -> dict[str, str]:
    defines: dict[str, str] = {}
    for value in values or []:
        name, _, text = value.partition("=")
        defines[name.strip()] = text if "=" in value else "1"
    return defines


def run_stage(path: str, work, flags: DxcFlags | None = None, recording=None):
    """Run ``work(diagnostics)``; print diagnostics; turn failures into exit codes.
    ``flags`` decides which warnings are shown and whether they are errors (-Wno-, -WX);
    a ``recording`` (output_cache.OutputCache) learns the files read and the diagnostics printed."""
    from ..diagnostics import (
        CompileError,
        Coord,
        Diagnostics,
        Unsupported,
        nesting_guard,
    )

    diagnostics = Diagnostics() if recording is None else Diagnostics(sources=recording.sources)
    if flags is not None:
        diagnostics.warnings_as_errors = flags.warnings_as_errors
        diagnostics.disabled_warnings = flags.disabled_warnings
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
        text = diagnostics.render()
        print(text, file=sys.stderr)
        if recording is not None:
            recording.diagnostics.append(text)
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
