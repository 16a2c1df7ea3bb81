"""The register report (``shc regs``): registers, occupancy and hot lines per wave size.

The front end, lowering and the passes before wave-op lowering run once; from there each
wave size is optimised on its own copy (wave ops lower differently), the RDNA2 back end allocates
registers, and the occupancy comes from the device table applied to shc's own counts. The
command line's report does wave64 in a forked process meanwhile (``reports_side_by_side``).
The hot lines come from the liveness pass: the source lines where the most VGPR values
are alive. LLVM's AMDGPU backend compiles the same kernel in a child process as a
cross-check; the two compiles of the two wave sizes run side by side, and LLVM IR that
LLVM compiled before is read back from the disk cache (amdgcn/check_cache.py). LLVM's
scheduler spends VGPRs freely up to the occupancy the kernel already has (in wave32
every kernel under 64 VGPRs runs 16 waves, so LLVM often reports 64), so its default
count is an upper bound, not the kernel's demand; ``llvm_demand`` adds the fewest
VGPRs LLVM fits the kernel in without spilling.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial

from .backend.amdgcn.check import LlvmFailure, LlvmFigures, cross_check
from .backend.rdna2.listing import Listing, render_listing
from .diagnostics import Diagnostics, display_path
from .ir.core import Module
from .ir.clone import clone_module
from .pipeline import Options, check_source, compile_program_waves, finish_wave, lower_for_waves
from .machine.rdna2 import next_step_vgprs


@dataclass
class WaveReport:
    wave_size: int
    listing: Listing
    hot_lines: list = field(default_factory=list)
    llvm: LlvmFigures | LlvmFailure | None = None

    def to_dict(self) -> dict:
        """The figures as JSON data (``shc regs --json`` prints these per wave size)."""
        listing = self.listing
        return {
            "vgprs": listing.vgprs,
            "vgprs_allocated": listing.vgprs_allocated,
            "sgprs": listing.sgprs,
            "lds_bytes": listing.lds_bytes,
            "scratch_bytes": listing.scratch_bytes,
            "occupancy": listing.occupancy,
            "limiter": listing.limiter,
            "next_step_vgprs": next_step_vgprs(listing.vgprs, self.wave_size),
            "hot_lines": [
                {"file": display_path(hot.file), "line": hot.line, "live_vgprs": hot.live_vgprs,
                 "values": list(hot.values),
                 # the functions the line was inlined through, innermost first, and their calls
                 "call_chain": [site.function for site in hot.chain],
                 "call_sites": [f"{display_path(site.call.file)}:{site.call.line}" for site in hot.chain]}
                for hot in self.hot_lines
            ],
            "llvm": _llvm_dict(self.llvm),
        }

    as_dict = to_dict  # the older name

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)


@dataclass
class KernelReport:
    entry: str
    file: str
    numthreads: tuple[int, int, int]
    waves: dict[int, WaveReport]

    def to_dict(self) -> dict:
        """The report as JSON data: one element of ``shc regs --json``'s ``"kernels"``."""
        return {
            "entry": self.entry,
            "file": display_path(self.file),
            "numthreads": list(self.numthreads),
            "waves": {str(size): report.to_dict() for size, report in sorted(self.waves.items())},
        }

    as_dict = to_dict  # the older name

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)


def _llvm_dict(figures: LlvmFigures | LlvmFailure | None) -> dict | None:
    if figures is None:
        return None
    if not figures.ok:
        return {"error": figures.message}
    result = {"vgprs": figures.vgprs, "sgprs": figures.sgprs, "occupancy": figures.occupancy}
    if figures.tight_vgprs is not None:
        result["demand_vgprs"] = figures.tight_vgprs
    return result


def build_report(text: str, filename: str, options: Options, diagnostics: Diagnostics,
                 lines: int = 5, llvm: bool = True, llvm_demand: bool = False, fork: bool = False) -> KernelReport:
    """Compile for wave32 and wave64 (one of them when ``[WaveSize(n)]`` fixes it) and report both;
    ``llvm_demand`` also searches LLVM's spill-free VGPR minimum (several LLVM compiles). With
    ``fork`` (``shc regs FILE``) and a second CPU, wave64 is compiled in a forked process while
    this one compiles wave32 (``reports_side_by_side``); the report is the same."""
    program = check_source(text, filename, options, diagnostics)
    if fork and not program.wave_size and can_fork():
        module, sizes = lower_for_waves(program, options, diagnostics, (32, 64))
        reports = reports_side_by_side(module, sizes, options, diagnostics,
                                       partial(wave_report, lines=lines, llvm=llvm, llvm_demand=llvm_demand))
        return KernelReport(options.entry, filename, module.function.numthreads, reports)
    modules: dict[int, Module] = compile_program_waves(program, options, diagnostics, (32, 64))  # [WaveSize(n)]: n
    reports = {}
    for size, module in modules.items():
        demand = module.analyses["liveness"]
        reports[size] = WaveReport(size, render_listing(module), demand.hot_lines(lines))
    if llvm:
        with ThreadPoolExecutor(max_workers=len(modules)) as pool:
            checks = {size: pool.submit(cross_check, module, tight=llvm_demand) for size, module in modules.items()}
            for size, future in checks.items():
                reports[size].llvm = future.result()
    function = next(iter(modules.values())).function
    return KernelReport(options.entry, filename, function.numthreads, reports)


def wave_report(module: Module, lines: int, llvm: bool, llvm_demand: bool) -> WaveReport:
    """One wave size's report from its module after the middle end, LLVM's figures included."""
    size = module.function.wave_size
    report = WaveReport(size, render_listing(module), module.analyses["liveness"].hot_lines(lines))
    if llvm:
        report.llvm = cross_check(module, tight=llvm_demand)
    return report


def can_fork() -> bool:
    """Whether a forked process can run beside this one: Linux (``sched_getaffinity`` says which
    CPUs this process may use), more than one CPU, and no thread but this one (a child forked
    from a process with others, such as a dispatch's kept workers or a host application's
    threads, inherits whatever locks they held at that moment: the command line's process has
    none, a program calling the report with ``fork`` may)."""
    return (sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
            and threading.active_count() == 1 and len(os.sched_getaffinity(0)) > 1)


def reports_side_by_side(module: Module, sizes: tuple[int, ...], options: Options, diagnostics: Diagnostics,
                         report) -> dict[int, WaveReport]:
    """``report(finish_wave(...))`` for each of the two ``sizes``, the second in a forked process
    at the same time. The child starts from this process's memory (``module`` as
    ``lower_for_waves`` left it: nothing is sent to it) and sends back its ``WaveReport``
    (pickled through a pipe between the two processes, never stored). When the child fails, the
    second size is compiled here after all, so its error is reported as without the fork."""
    first, second = sizes
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    sys.stdout.flush()  # the child must not write what this process has buffered a second time
    sys.stderr.flush()
    child = context.Process(target=_send_report, args=(sender, module, second, options, diagnostics, report),
                            daemon=True)
    child.start()
    sender.close()
    try:
        reports = {first: report(finish_wave(clone_module(module), first, options, diagnostics))}
        try:
            received, said = receiver.recv()
            diagnostics.items.extend(said)  # what the child reported while compiling its size
        except Exception:  # noqa: BLE001 - the child ended without sending, or what it sent is unreadable
            received = None
        child.join()
    except BaseException:  # this process's size failed: the child's work is not wanted
        child.terminate()
        child.join()
        raise
    finally:
        receiver.close()
    reports[second] = received if received is not None else report(finish_wave(module, second, options,
                                                                               diagnostics))
    return reports


def _send_report(sender, module: Module, size: int, options: Options, diagnostics: Diagnostics, report) -> None:
    """The child's part of ``reports_side_by_side``: its report and the diagnostics it added (a
    warning of its size's passes), or None when anything failed."""
    before = len(diagnostics.items)
    try:
        sender.send((report(finish_wave(module, size, options, diagnostics)), diagnostics.items[before:]))
    except BaseException:  # noqa: BLE001 - the parent compiles this size again and reports the error
        sender.send((None, []))
    finally:
        sender.close()


def render_table(report: KernelReport) -> str:
    """The human-readable report (plain text that reads well in a terminal and in CI logs)."""
    x, y, z = report.numthreads
    out = [f"{display_path(report.file)}: entry {report.entry}, numthreads({x}, {y}, {z})", ""]
    sizes = sorted(report.waves)
    rows = [
        ("VGPRs used / allocated", lambda w: f"{w.listing.vgprs} / {w.listing.vgprs_allocated}"),
        ("SGPRs", lambda w: str(w.listing.sgprs)),
        ("LDS bytes", lambda w: str(w.listing.lds_bytes)),
        ("scratch bytes", lambda w: str(w.listing.scratch_bytes)),
        ("occupancy (waves/SIMD)", lambda w: f"{w.listing.occupancy} ({w.listing.limiter})"),
        ("VGPRs to free for next step", lambda w: _next_step(w)),
        ("LLVM VGPRs / SGPRs", lambda w: _llvm_pair(w.llvm)),
        ("LLVM occupancy", lambda w: _llvm_occupancy(w.llvm)),
        ("LLVM VGPR demand (no spills)", lambda w: _llvm_demand(w.llvm)),
    ]
    if all(not _has_demand(report.waves[size].llvm) for size in sizes):
        rows = rows[:-1]
    if all(report.waves[size].llvm is None for size in sizes):
        rows = [row for row in rows if not row[0].startswith("LLVM")]  # --no-llvm
    width = max(len(name) for name, _ in rows) + 2
    out.append(" " * width + "".join(f"{'wave' + str(size):>16}" for size in sizes))
    for name, cell in rows:
        out.append(f"{name:<{width}}" + "".join(f"{cell(report.waves[size]):>16}" for size in sizes))
    for size in sizes:
        wave = report.waves[size]
        if wave.llvm is not None and not wave.llvm.ok:
            out.append(f"  wave{size}: LLVM cross-check failed: {wave.llvm.message}")
    for size in sizes:
        wave = report.waves[size]
        out.append("")
        out.append(f"wave{size}: source lines with the most live VGPRs")
        places = [f"{display_path(hot.file)}:{hot.line}" for hot in wave.hot_lines]
        place_width = max((len(place) for place in places), default=0)
        for place, hot in zip(places, wave.hot_lines):
            shown = ", ".join(hot.values[:8]) + (", ..." if len(hot.values) > 8 else "")
            out.append(f"  {place:<{place_width}}  {hot.live_vgprs:>4} live  {shown}")
            if hot.chain:  # a line of an inlined function: the calls it was inlined through
                out.append(f"  {'':<{place_width}}  {hot_place(hot, report.entry)[len(place) + 1:]}")
    return "\n".join(out)


def hot_place(hot, entry: str) -> str:
    """``ffx_spd.h:483 in SpdDownsampleMips_0_1 <- SpdDownsample <- main`` (just ``file:line`` in the entry)."""
    place = f"{display_path(hot.file)}:{hot.line}"
    if not hot.chain:
        return place
    return f"{place} in {' <- '.join(site.function for site in hot.chain)} <- {entry}"


def _next_step(wave: WaveReport) -> str:
    step = next_step_vgprs(wave.listing.vgprs, wave.wave_size)
    return "-" if step is None else str(step)


def _llvm_pair(figures) -> str:
    if figures is None:
        return "-"
    if not figures.ok:
        return "failed"
    return f"{figures.vgprs} / {figures.sgprs}"


def _has_demand(figures) -> bool:
    return figures is not None and figures.ok and figures.tight_vgprs is not None


def _llvm_demand(figures) -> str:
    return str(figures.tight_vgprs) if _has_demand(figures) else "-"


def _llvm_occupancy(figures) -> str:
    if figures is None or not figures.ok:
        return "-"
    return str(figures.occupancy)
