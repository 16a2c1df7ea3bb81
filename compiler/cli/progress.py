"""Progress on a terminal: a rich bar (or spinner) on stderr, and nothing anywhere else.

    with Progress("compiling", total=len(jobs), quiet=quiet) as progress:
        ... progress.advance() ...
        progress.update(completed=done, total=all, description="dispatching")

It shows only when stderr is a terminal and ``-q/--quiet`` was not given, so logs, pipes
and tests see the command's output alone. ``delay`` seconds pass before anything is drawn
(a dispatch that ends sooner shows nothing); the display is transient: it disappears when
the work is done, leaving the report.
"""

from __future__ import annotations

import sys
import time

import typer

QuietOption = typer.Option(False, "-q", "--quiet", help="Show no progress (it shows only on a terminal, on stderr).")


class Progress:
    """A transient rich display on stderr: a bar once ``total`` is known, else a spinner."""

    def __init__(self, description: str, total: int | None = None, quiet: bool = False, delay: float = 0.0):
        self.description = description
        self.total = total
        self.completed = 0
        self.enabled = not quiet and _is_terminal(sys.stderr)
        self.delay = delay
        self.started = time.monotonic()
        self._live = None
        self._task = None

    def __enter__(self) -> Progress:
        if self.enabled and self.delay <= 0:
            self._show()
        return self

    def __exit__(self, *exc) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def advance(self, steps: int = 1) -> None:
        self.update(completed=self.completed + steps)

    def update(self, completed: int | None = None, total: int | None = None, description: str | None = None) -> None:
        if completed is not None:
            self.completed = completed
        if total is not None:
            self.total = total
        if description is not None:
            self.description = description
        if not self.enabled:
            return
        if self._live is None and time.monotonic() - self.started >= self.delay:
            self._show()
        if self._live is not None:
            self._live.update(self._task, completed=self.completed, total=self.total, description=self.description)

    def _show(self) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress, SpinnerColumn,
                                   TextColumn, TimeElapsedColumn)

        columns = [SpinnerColumn(), TextColumn("{task.description}")]
        if self.total is not None:
            columns += [BarColumn(), MofNCompleteColumn()]
        columns.append(TimeElapsedColumn())
        self._live = RichProgress(*columns, console=Console(stderr=True), transient=True)
        self._task = self._live.add_task(self.description, total=self.total, completed=self.completed)
        self._live.start()


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
