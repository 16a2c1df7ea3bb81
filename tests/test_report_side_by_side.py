"""``shc regs FILE`` compiles wave64 in a forked process while it compiles wave32
(``report.reports_side_by_side``): the report is the one compiled in turn, and a child that
fails leaves the work, and its error, to the parent."""

from __future__ import annotations

import os
from pathlib import Path

from shc.compiler import report as report_module
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.pipeline import Options
from shc.compiler.report import build_report, render_table

SPD = Path(__file__).resolve().parent.parent / "samples" / "spd.hlsl"


def report_text(fork: bool) -> tuple[str, dict]:
    report = build_report(SPD.read_text(), str(SPD), Options(), Diagnostics(), llvm=False, fork=fork)
    return render_table(report), report.to_dict()


def record_processes(monkeypatch, tmp_path, fail_in_child: bool = False) -> Path:
    """Make ``finish_wave`` note which process ran each wave size (a file: the child's memory is its own)."""
    log = tmp_path / "sizes"
    parent = os.getpid()
    real = report_module.finish_wave

    def noted(module, size, options, diagnostics):
        with open(log, "a") as out:
            out.write(f"{size} {'parent' if os.getpid() == parent else 'child'}\n")
        if fail_in_child and os.getpid() != parent:
            raise RuntimeError("a failure in the child")
        return real(module, size, options, diagnostics)

    monkeypatch.setattr(report_module, "finish_wave", noted)
    monkeypatch.setattr(report_module, "can_fork", lambda: True)  # a one-CPU machine forks too, here
    return log


def test_wave64_is_compiled_in_a_child_and_the_report_is_the_same(monkeypatch, tmp_path):
    alone = report_text(fork=False)
    log = record_processes(monkeypatch, tmp_path)
    assert report_text(fork=True) == alone
    assert sorted(log.read_text().split("\n")[:-1]) == ["32 parent", "64 child"]


def test_a_child_that_fails_leaves_its_wave_size_to_the_parent(monkeypatch, tmp_path):
    alone = report_text(fork=False)
    log = record_processes(monkeypatch, tmp_path, fail_in_child=True)
    assert report_text(fork=True) == alone
    assert sorted(log.read_text().split("\n")[:-1]) == ["32 parent", "64 child", "64 parent"]


def test_without_a_second_cpu_both_sizes_are_compiled_here(monkeypatch, tmp_path):
    log = record_processes(monkeypatch, tmp_path)
    monkeypatch.setattr(report_module, "can_fork", lambda: False)
    report_text(fork=True)
    assert not log.exists()  # compile_program_waves, not the fork's finish_wave per size


def test_a_warning_from_the_childs_wave_size_reaches_this_process(monkeypatch, tmp_path):
    record_processes(monkeypatch, tmp_path)
    counted = report_module.finish_wave

    def warning_at_wave64(module, size, options, diagnostics):
        if size == 64:
            diagnostics.warning("seen at wave64", module.function.coord, "uniformity")
        return counted(module, size, options, diagnostics)

    monkeypatch.setattr(report_module, "finish_wave", warning_at_wave64)
    diagnostics = Diagnostics()
    build_report(SPD.read_text(), str(SPD), Options(), diagnostics, llvm=False, fork=True)
    assert [(d.severity, d.message) for d in diagnostics.items] == [("warning", "seen at wave64")]


def test_a_process_with_other_threads_does_not_fork(monkeypatch):
    monkeypatch.setattr(report_module.os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr(report_module.threading, "active_count", lambda: 1)
    assert report_module.can_fork()
    monkeypatch.setattr(report_module.threading, "active_count", lambda: 2)  # e.g. a dispatch's kept worker
    assert not report_module.can_fork()
