"""Register sweeps: every file x every define permutation x every wave size, one row each.

    jobs = plan(["samples/"], permutations(["A_HALF=-,1"]), (32, 64))
    rows = run_sweep(jobs, workers=2)               # a process pool; workers=1 runs in process
    rows = run_sweep(jobs, scheduler="tcp://...")   # a Dask distributed cluster
    regressions, notes = compare(load_rows("old.json"), rows)

A job compiles one file for one wave size with one set of defines through the middle end
and the RDNA2 back end (``render_listing``) and becomes a flat row: VGPRs used and
allocated, SGPRs, LDS, scratch, occupancy and its limiter, and LLVM's VGPRs and occupancy
when ``llvm`` is asked for (a child process per row, so off by default). A file that does
not compile is a row with its rendered diagnostics in ``error``, never the end of the sweep.
A ``[WaveSize(n)]`` kernel gives one row however many wave sizes were asked for.

A row's key is (file, the permutation's defines, wave size): ``compare`` matches an old
sweep's rows to a new one's by it. A regression is a row that allocates more VGPRs or
runs fewer waves per SIMD than before; rows only one side has are notes.
"""

from __future__ import annotations

import itertools
import json
import os
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Callable

from .backend.amdgcn.check import cross_check
from .backend.rdna2.listing import render_listing
from .diagnostics import (CompileError, Coord, Diagnostics, SourceFileError, Unsupported, nesting_guard,
                          read_source_text)
from .pipeline import Options, compile_source, read_source

__all__ = ["COLUMNS", "SweepError", "SweepJob", "compare", "expand_paths", "load_rows", "measure",
           "permutations", "plan", "render_rows", "run_sweep"]

UNDEFINED = ("", "-")  # a --permute value that leaves the macro undefined

# The columns of the table and the CSV file, each with the row key it shows.
COLUMNS = (("file", "file"), ("defines", "defines"), ("wave", "wave"), ("vgprs", "vgprs"),
           ("allocated", "vgprs_allocated"), ("sgprs", "sgprs"), ("lds", "lds_bytes"),
           ("scratch", "scratch_bytes"), ("occupancy", "occupancy"), ("limiter", "limiter"))
LLVM_COLUMNS = (("llvm vgprs", "llvm_vgprs"), ("llvm occupancy", "llvm_occupancy"))


class SweepError(ValueError):
    """Something the sweep was given that cannot be used (a missing file, a bad --permute)."""


@dataclass(frozen=True)
class SweepJob:
    """One row to compute: what to compile and how."""

    file: str
    defines: tuple[tuple[str, str], ...]  # the permutation's defines, in --permute order
    wave_size: int
    entry: str = "main"
    common: tuple[tuple[str, str], ...] = ()  # -D defines every row gets
    include_dirs: tuple[str, ...] = ()
    llvm: bool = False
    text: str | None = None  # the file, read where the sweep starts (cluster workers may not see it)
    shader_model: tuple[int, int] = (6, 6)  # -T cs_6_x
    hlsl_version: int = 2021  # -HV


def expand_paths(paths: list[str]) -> list[str]:
    """Files as given; a directory becomes its ``*.hlsl`` files, sorted by name."""
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(name for name in os.listdir(path)
                           if name.endswith(".hlsl") and os.path.isfile(os.path.join(path, name)))
            if not found:
                raise SweepError(f"{path}: the directory has no .hlsl files")
            files += [os.path.normpath(os.path.join(path, name)) for name in found]
        elif os.path.exists(path):
            files.append(os.path.normpath(path))
        else:
            raise SweepError(f"{path}: no such file or directory")
    return list(dict.fromkeys(files))


def permutations(specs: list[str] | None) -> list[tuple[tuple[str, str], ...]]:
    """``NAME=v1,v2`` specs as the cartesian product of their values; ``-`` (or nothing) as a
    value leaves the macro undefined, so ``A_HALF=-,1`` sweeps a switch off and on."""
    axes: list[list[tuple[str, str | None]]] = []
    seen: set[str] = set()
    for spec in specs or []:
        name, sep, values = spec.partition("=")
        name = name.strip()
        if not sep or not name.isidentifier():
            raise SweepError(f"--permute expects NAME=VALUE,VALUE..., not '{spec}'")
        if name in seen:
            raise SweepError(f"--permute {name} is given twice; list all its values once: {name}=a,b,c")
        seen.add(name)
        choices = [value.strip() for value in values.split(",")]
        axes.append([(name, None if value in UNDEFINED else value) for value in dict.fromkeys(choices)])
    return [tuple((name, value) for name, value in combination if value is not None)
            for combination in itertools.product(*axes)]


def plan(files: list[str], defines_sets: list[tuple[tuple[str, str], ...]], wave_sizes: tuple[int, ...],
         entry: str = "main", common: dict[str, str] | None = None, include_dirs: list[str] | None = None,
         llvm: bool = False, shader_model: tuple[int, int] = (6, 6), hlsl_version: int = 2021) -> list[SweepJob]:
    """One job per file x define set x wave size, in that order. Each job carries its file's text
    (a file that cannot be read is read again by the job, which reports why); include
    directories become absolute paths, so a cluster's workers need the same paths for
    ``#include`` (a shared checkout), not for the files swept."""
    shared = tuple((common or {}).items())
    dirs = tuple(os.path.abspath(directory) for directory in include_dirs or ())
    texts = {}
    for file in files:
        try:
            texts[file] = read_source_text(file)
        except (OSError, SourceFileError):
            texts[file] = None
    # the file's own directory, absolute, last: where its quoted includes are when a worker's
    # working directory is not this one
    return [SweepJob(file, defines, size, entry, shared, dirs + (os.path.abspath(os.path.dirname(file)),), llvm,
                     texts[file], shader_model, hlsl_version)
            for file in files for defines in defines_sets for size in wave_sizes]


def measure(job: SweepJob) -> dict:
    """Compile ``job`` and return its row (the function pool and cluster workers run)."""
    row = {"file": job.file, "defines": dict(job.defines), "wave": job.wave_size, "error": None}
    defines = dict(job.common)
    defines.update(job.defines)
    options = Options(entry=job.entry, defines=defines, include_dirs=list(job.include_dirs),
                      wave_size=job.wave_size, shader_model=job.shader_model, hlsl_version=job.hlsl_version)
    diagnostics = Diagnostics()
    try:
        with nesting_guard(diagnostics, Coord(job.file, 0, 0)):
            text = job.text if job.text is not None else read_source(job.file, diagnostics)
            module = compile_source(text, job.file, options, diagnostics)
            listing = render_listing(module)
    except CompileError:
        row["error"] = diagnostics.render()
        return row
    except Unsupported as failure:
        diagnostics.error(str(failure), failure.coord)
        row["error"] = diagnostics.render()
        return row
    except Exception as failure:  # noqa: BLE001 - one broken row must not end the sweep
        frames = traceback.extract_tb(failure.__traceback__)
        inside = f" (in {os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""
        detail = " ".join(str(failure).split())
        row["error"] = f"{job.file}: internal compiler error: {type(failure).__name__}: {detail}{inside}"
        return row
    row.update(wave=module.function.wave_size, vgprs=listing.vgprs, vgprs_allocated=listing.vgprs_allocated,
               sgprs=listing.sgprs, lds_bytes=listing.lds_bytes, scratch_bytes=listing.scratch_bytes,
               occupancy=listing.occupancy, limiter=listing.limiter)
    if job.llvm:
        figures = cross_check(module)
        if figures.ok:
            row.update(llvm_vgprs=figures.vgprs, llvm_occupancy=figures.occupancy)
        else:
            row.update(llvm_vgprs=None, llvm_occupancy=None, llvm_error=figures.message)
    return row


def run_sweep(jobs: list[SweepJob], workers: int = 1, scheduler: str | None = None,
              done: Callable[[], None] | None = None) -> list[dict]:
    """Every job's row, in job order; ``done()`` after each row. ``workers`` > 1 compiles in a
    process pool; ``scheduler`` (an address) on a Dask distributed cluster instead."""
    tick = done or (lambda: None)
    if scheduler is not None:
        rows = _on_cluster(jobs, scheduler, tick)
    elif workers <= 1 or len(jobs) <= 1:
        rows = []
        for job in jobs:
            rows.append(measure(job))
            tick()
    else:
        rows = [None] * len(jobs)
        try:
            with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
                pending = {pool.submit(measure, job): index for index, job in enumerate(jobs)}
                for future in as_completed(pending):
                    rows[pending[future]] = future.result()
                    tick()
        except BrokenProcessPool:
            raise SweepError("a compiling process died (out of memory?): the sweep stopped; "
                             "try fewer --jobs") from None
    return _distinct(rows)


def _on_cluster(jobs: list[SweepJob], address: str, tick: Callable[[], None]) -> list[dict]:
    try:
        from distributed import Client, as_completed as completed_on_cluster
    except ImportError:
        raise SweepError("--scheduler needs Dask's distributed scheduler: pip install 'shc[distributed]'") from None
    try:
        client = Client(address, timeout=30)
    except (OSError, TimeoutError, ValueError) as failure:
        raise SweepError(f"cannot reach the Dask scheduler at {address}: {failure}") from None
    with client:
        futures = client.map(measure, jobs, pure=False)
        try:
            for _ in completed_on_cluster(futures):
                tick()
            return client.gather(futures)
        except Exception as failure:  # noqa: BLE001 - a lost worker, a worker without shc, ...
            raise SweepError(f"the Dask cluster at {address} could not run the sweep: "
                             f"{type(failure).__name__}: {failure}") from None


def _distinct(rows: list[dict]) -> list[dict]:
    """Rows with distinct keys: a [WaveSize(n)] kernel compiled for each asked size gives one."""
    kept: dict[tuple, dict] = {}
    for row in rows:
        kept.setdefault(row_key(row), row)
    return list(kept.values())


def row_key(row: dict) -> tuple:
    return row["file"], tuple(sorted(row["defines"].items())), row["wave"]


def defines_text(defines: dict) -> str:
    return " ".join(f"{name}={value}" for name, value in defines.items()) or "-"


def cell(row: dict, key: str) -> str:
    """A row's value as a table or CSV cell."""
    if key == "defines":
        return defines_text(row["defines"])
    if row.get("error") is not None and key not in ("file", "wave"):
        return "error" if key == "vgprs" else ""
    value = row.get(key)
    return "-" if value is None else str(value)


def columns(rows: list[dict]) -> tuple:
    return COLUMNS + (LLVM_COLUMNS if any("llvm_vgprs" in row for row in rows) else ())


def render_rows(rows: list[dict]) -> str:
    """The plain-text table (a failed row says ``error``; its diagnostics are in ``row["error"]``)."""
    chosen = columns(rows)
    table = [[title for title, _ in chosen]] + [[cell(row, key) for _, key in chosen] for row in rows]
    widths = [max(len(line[index]) for line in table) for index in range(len(chosen))]
    numeric = [key not in ("file", "defines", "limiter") for _, key in chosen]
    lines = ["  ".join(text.rjust(width) if right else text.ljust(width)
                       for text, width, right in zip(line, widths, numeric)).rstrip() for line in table]
    return "\n".join(lines)


def describe(row: dict) -> str:
    """``samples/spd.hlsl [A_HALF=1] wave64``: a row as messages name it."""
    defines = f" [{defines_text(row['defines'])}]" if row["defines"] else ""
    return f"{row['file']}{defines} wave{row['wave']}"


def load_rows(path: str) -> list[dict]:
    """The rows of a file written by ``shc regs ... --json`` as a sweep."""
    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
    except OSError as failure:
        raise SweepError(f"cannot read --baseline {path}: {failure.strerror or failure}") from None
    except ValueError as failure:
        raise SweepError(f"--baseline {path} is not JSON: {failure}") from None
    if not isinstance(data, list) or not all(isinstance(row, dict) and {"file", "defines", "wave"} <= set(row)
                                             and isinstance(row["defines"], dict) for row in data):
        raise SweepError(f"--baseline {path} is not a sweep: write one with shc regs FILES... --json")
    return data


@dataclass
class Comparison:
    regressions: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def compare(old_rows: list[dict], new_rows: list[dict]) -> Comparison:
    """Row by row: more VGPRs allocated or fewer waves per SIMD than the baseline is a regression."""
    result = Comparison()
    old = {row_key(row): row for row in old_rows}
    new = {row_key(row): row for row in new_rows}
    for key, row in new.items():
        before = old.get(key)
        if before is None:
            result.notes.append(f"{describe(row)}: new row (not in the baseline)")
            continue
        if row.get("error") is not None or before.get("error") is not None:
            if row.get("error") is not None and before.get("error") is None:
                result.regressions.append(f"{describe(row)}: compiled in the baseline, fails now")
            continue
        changes = []
        if row["vgprs_allocated"] > before["vgprs_allocated"]:
            changes.append(f"VGPRs allocated {before['vgprs_allocated']} -> {row['vgprs_allocated']}")
        if row["occupancy"] < before["occupancy"]:
            changes.append(f"occupancy {before['occupancy']} -> {row['occupancy']} waves/SIMD "
                           f"(limited by {row['limiter']})")
        if changes:
            result.regressions.append(f"{describe(row)}: " + ", ".join(changes))
    for key, row in old.items():
        if key not in new:
            result.notes.append(f"{describe(row)}: in the baseline, not in this sweep")
    return result
