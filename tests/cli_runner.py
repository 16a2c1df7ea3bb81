"""``shc ARGS`` run inside the test process: the typer app the installed ``shc`` script runs
(``shc.compiler.cli.app``) through typer's CliRunner, without starting Python again for each
command (a new ``shc`` process costs 0.3-0.7 s of CPU before it compiles anything).

The result reads like ``subprocess.run``'s: ``returncode``, ``stdout``, ``stderr``. An
exception that leaves the app fails the test, as the traceback it would print in a real run
would. Tests about the process itself still start ``shc``: the installed script, crashes and
tracebacks, resource limits, signals, the tier-up child, what ``main()`` sets up (the collector
threshold) and the modules a new process imports.

A test file imports it with ``sys.path.insert(0, <the tests folder>)`` then
``from cli_runner import shc``.
"""

from __future__ import annotations

import os
import subprocess
import traceback
from contextlib import contextmanager

from typer.testing import CliRunner

from shc.compiler import cli


@contextmanager
def working_directory(path):
    """Run the block in ``path`` (if given), then go back to where the test was."""
    if path is None:
        yield
        return
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def shc(*args, cwd=None, env: dict[str, str | None] | None = None, input: str | None = None
        ) -> subprocess.CompletedProcess:
    """Run ``shc ARGS`` in ``cwd`` with ``env`` (names set, or unset with None, for this command
    only) and ``input`` on stdin; the exit code and what it wrote to stdout and stderr."""
    arguments = [str(arg) for arg in args]
    with working_directory(cwd):
        result = CliRunner().invoke(cli.app, arguments, env=env, input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"shc {' '.join(arguments)} raised (a traceback in a real run):\n"
                             + "".join(traceback.format_exception(result.exception)))
    return subprocess.CompletedProcess(["shc", *arguments], result.exit_code, result.stdout, result.stderr)
