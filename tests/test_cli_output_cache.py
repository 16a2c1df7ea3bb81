"""The command-line output cache (compiler/cli/output_cache.py): ``shc compile`` and ``shc regs
FILE`` print a stored output again without compiling, with the warnings the first run printed;
any change to the source, an included header or an option compiles again; a failing run
stores nothing.

The typer app runs in-process so a test can break the compiler on purpose: a hit must not
reach it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from shc.compiler import cli, pipeline, report

HEADER = "float scale() { return 2.0; }\n"

KERNEL = """\
#include "scale.h"
RWStructuredBuffer<float> o : register(u0);
[numthreads(64, 1, 1)]
void main(uint i : SV_DispatchThreadID) {
    float2 v = float4(1, 2, 3, i);
    o[i] = v.x * scale();
}
"""


@pytest.fixture
def kernel(tmp_path, monkeypatch):
    monkeypatch.setenv("SHC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scale.h").write_text(HEADER)
    (tmp_path / "kernel.hlsl").write_text(KERNEL)
    return tmp_path


def invoke(*args):
    return CliRunner().invoke(cli.app, [str(a) for a in args])


@pytest.fixture
def broken_compiler(monkeypatch):
    """After this, compiling anything is an internal compiler error."""

    def broken(*args, **kwargs):
        raise RuntimeError("the compiler ran")

    def breaks():
        monkeypatch.setattr(pipeline, "compile_file", broken)
        monkeypatch.setattr(report, "build_report", broken)

    return breaks


def entries(folder) -> list:
    cache = folder / "cache" / "cli"
    return sorted(cache.iterdir()) if cache.exists() else []


@pytest.mark.parametrize("args", [["compile", "kernel.hlsl", "--target", "rdna2"], ["compile", "kernel.hlsl"],
                                  ["regs", "kernel.hlsl", "--no-llvm"], ["regs", "kernel.hlsl", "--json"]],
                         ids=["listing", "ir", "regs", "regs-json"])
def test_a_second_run_prints_the_same_without_compiling(kernel, broken_compiler, args):
    first = invoke(*args)
    assert first.exit_code == 0, first.output
    assert "warning: implicit truncation" in first.stderr and first.stdout.strip()
    broken_compiler()
    second = invoke(*args)
    assert second.exit_code == 0, second.output
    assert (second.stdout, second.stderr) == (first.stdout, first.stderr)
    assert len(entries(kernel)) == 1


def test_a_hit_writes_the_output_file(kernel, broken_compiler):
    assert invoke("compile", "kernel.hlsl", "--target", "rdna2", "-Fo", "first.s").exit_code == 0
    broken_compiler()
    assert invoke("compile", "kernel.hlsl", "--target", "rdna2", "-Fo", "second.s").exit_code == 70  # another -Fo
    assert invoke("compile", "kernel.hlsl", "--target", "rdna2", "-Fo", "first.s").exit_code == 0
    assert (kernel / "first.s").read_text().startswith("; shc")


@pytest.mark.parametrize("change", ["header", "source", "option", "directory"])
def test_a_change_compiles_again(kernel, broken_compiler, change, tmp_path_factory, monkeypatch):
    assert invoke("compile", "kernel.hlsl", "--target", "rdna2").exit_code == 0
    args = ["compile", "kernel.hlsl", "--target", "rdna2"]
    if change == "header":
        (kernel / "scale.h").write_text(HEADER.replace("2.0", "3.0"))
    elif change == "source":
        (kernel / "kernel.hlsl").write_text(KERNEL.replace("v.x", "v.y"))
    elif change == "option":
        args += ["--wave-size", "64"]
    else:  # paths are shown relative to the working directory
        other = tmp_path_factory.mktemp("elsewhere")
        args[1] = str(kernel / "kernel.hlsl")
        monkeypatch.chdir(other)
    broken_compiler()
    result = invoke(*args)
    assert result.exit_code == 70 and "the compiler ran" in result.stderr


def test_a_failing_run_stores_nothing(kernel):
    (kernel / "kernel.hlsl").write_text(KERNEL.replace("v.x", "v.q"))
    assert invoke("compile", "kernel.hlsl", "--target", "rdna2").exit_code == 1
    assert invoke("regs", "kernel.hlsl", "--no-llvm").exit_code == 1
    assert entries(kernel) == []


def test_a_damaged_entry_is_a_miss_and_is_written_again(kernel):
    first = invoke("compile", "kernel.hlsl", "--target", "rdna2")
    (entry,) = entries(kernel)
    entry.write_text(json.dumps({"format": 1, "output": 3}))
    again = invoke("compile", "kernel.hlsl", "--target", "rdna2")
    assert again.stdout == first.stdout
    assert json.loads(entry.read_text())["output"].rstrip("\n") == first.stdout.rstrip("\n")


def test_views_and_pass_printing_are_not_kept(kernel):
    for args in (["--livereg"], ["--print-after", "dce"], ["--verify"], ["-Fc", "listing.s"]):
        assert invoke("compile", "kernel.hlsl", "--target", "rdna2", *args).exit_code == 0
    assert entries(kernel) == []


@pytest.mark.parametrize("command", ["compile", "regs"])
def test_no_cache_compiles_and_keeps_nothing(kernel, broken_compiler, command):
    assert invoke(command, "kernel.hlsl", "--no-cache").exit_code == 0
    assert entries(kernel) == []
    assert invoke(command, "kernel.hlsl").exit_code == 0
    broken_compiler()
    assert invoke(command, "kernel.hlsl").exit_code == 0
    assert invoke(command, "kernel.hlsl", "--no-cache").exit_code == 70


def shc_process(*args, cwd):
    """``shc`` in a new process, so that a wait on a FIFO fails the test instead of hanging it."""
    return subprocess.run([sys.executable, "-m", "shc.compiler.cli", *map(str, args)], cwd=cwd, env=dict(os.environ),
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("which", ["main file", "header"])
def test_a_fifo_is_never_read_by_the_cache(kernel, which):
    assert shc_process("compile", "kernel.hlsl", "--target", "rdna2", cwd=kernel).returncode == 0
    path = kernel / ("kernel.hlsl" if which == "main file" else "scale.h")
    path.unlink()
    os.mkfifo(path)
    result = shc_process("compile", "kernel.hlsl", "--target", "rdna2", cwd=kernel)
    assert result.returncode == 1 and "not a regular file" in result.stderr
