"""``shc`` run as a user runs it: exit codes, what goes to stdout and stderr, the options.

Most tests run the typer app in-process (tests/cli_runner.py), as the internal-compiler-error
tests must, to break the compiler on purpose; ``--help`` and ``--version`` start the installed
``shc`` script, and the tests of what a new process imports and collects start Python.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shc.compiler import cli

sys.path.insert(0, os.path.dirname(__file__))
from cli_runner import shc  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
SCRIPT = Path(sys.executable).with_name("shc")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "shc.compiler.cli"]


def installed_shc(*args, env=None):
    """The installed ``shc`` script in a new process, as a user types it."""
    return subprocess.run(COMMAND + [str(a) for a in args], capture_output=True, text=True, env=env, timeout=120)


VALID = """\
RWStructuredBuffer<float> output : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    output[id.x] = id.x * 0.5;
}
"""

BROKEN = """\
RWStructuredBuffer<float> output : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    output[id.x] = scale * id.x;
    float2 v = output[id.x].xyz;
}
"""


@pytest.fixture
def shader(tmp_path):
    def write(text, name="kernel.hlsl"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path
    return write


def test_a_valid_sample_is_silent():
    result = shc("check", SAMPLES / "prefix_sum.hlsl")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_errors_exit_1_with_formatted_diagnostics_on_stderr(shader):
    path = shader(BROKEN)
    result = shc("check", "kernel.hlsl", cwd=path.parent)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (
        "kernel.hlsl:6:20: error: use of undeclared identifier 'scale'\n"
        "    output[id.x] = scale * id.x;\n"
        "                   ^\n"
        "kernel.hlsl:7:29: error: invalid swizzle 'xyz' on 'float'\n"
        "    float2 v = output[id.x].xyz;\n"
        "                            ^\n"
    )


def test_warnings_alone_exit_0(shader):
    path = shader(VALID.replace("id.x * 0.5;", "dot(float4(1, 2, 3, 4), float3(id));"))
    result = shc("check", "kernel.hlsl", cwd=path.parent)
    assert result.returncode == 0
    assert result.stderr.startswith("kernel.hlsl:6:24: warning: implicit truncation of vector type "
                                    "('float4' to 'float3') [-Wconversion]\n")


def test_emit_ast(shader):
    path = shader(VALID)
    result = shc("check", path, "--emit", "ast")
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].startswith("TranslationUnit")
    assert any("FuncDecl name='main' <void>  @4:6" in line for line in lines)
    assert any("Binary op='*' <float>" in line for line in lines)


def test_unknown_emit_stage(shader):
    result = shc("check", shader(VALID), "--emit", "bogus")
    assert result.returncode == 1
    assert result.stderr == "shc: error: unknown --emit value 'bogus' (expected 'ast')\n"


def test_defines(shader):
    path = shader("""\
#ifndef GROUP
#error define GROUP
#endif
RWStructuredBuffer<float> output;
[numthreads(GROUP, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
#ifdef DOUBLE
    output[id.x] = 2;
#else
    output[id.x] = undefined;
#endif
}
""")
    assert shc("check", path, "-D", "GROUP=64", "-D", "DOUBLE").returncode == 0
    assert shc("check", path, "--define", "GROUP=64", "--define", "DOUBLE").returncode == 0
    missing = shc("check", "kernel.hlsl", "-D", "GROUP=64", cwd=path.parent)
    assert missing.returncode == 1
    assert missing.stderr.startswith("kernel.hlsl:11:20: error: use of undeclared identifier 'undefined'")
    too_big = shc("check", "kernel.hlsl", "-D", "GROUP=2048", "-D", "DOUBLE", cwd=path.parent)
    assert too_big.stderr.startswith("kernel.hlsl:5:2: error: numthreads x is 2048; it must be from 1 to 1024")
    no_group = shc("check", "kernel.hlsl", cwd=path.parent)
    assert no_group.stderr.startswith("kernel.hlsl:2:2: error: #error define GROUP")


def test_include_directories(shader, tmp_path):
    shader("static const uint WIDTH = 64;\nfloat Twice(float x) { return undefinedHelper(x); }\n",
           "include/common.h")
    path = shader('#include "common.h"\n' + VALID.replace("id.x * 0.5", "Twice(id.x % WIDTH)"))
    without = shc("check", path)
    assert without.returncode == 1
    assert "'common.h' file not found" in without.stderr
    result = shc("check", "kernel.hlsl", "-I", "include", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("In file included from kernel.hlsl:1:\n"
                                    "include/common.h:2:31: error: use of undeclared identifier "
                                    "'undefinedHelper'\n"
                                    "float Twice(float x) { return undefinedHelper(x); }\n")


def test_entry_option(shader):
    path = shader(VALID.replace("void main", "void Downsample"))
    assert shc("check", path, "-E", "Downsample").returncode == 0
    assert shc("check", path, "--entry", "Downsample").returncode == 0
    result = shc("check", "kernel.hlsl", cwd=path.parent)
    assert (result.returncode, result.stderr) == (1, "kernel.hlsl: error: entry point 'main' not found\n")


def test_missing_file(tmp_path):
    result = shc("check", "nowhere.hlsl", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == "nowhere.hlsl: error: cannot read file: No such file or directory\n"


def test_help_is_fast_and_builds_no_tables(tmp_path):
    env = dict(os.environ, SHC_CACHE_DIR=str(tmp_path / "cache"), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    start = time.perf_counter()
    result = installed_shc("--help", env=env)
    elapsed = time.perf_counter() - start
    assert result.returncode == 0
    assert "check" in result.stdout
    assert not (tmp_path / "cache").exists() and not (tmp_path / "xdg").exists()
    assert elapsed < 5.0, f"shc --help took {elapsed:.2f} s"
    assert installed_shc("check", "--help", env=env).returncode == 0
    assert not (tmp_path / "cache").exists()


def test_help_imports_no_parser():
    code = ("import sys; from shc.compiler.cli import app; "
            "print(sorted(m for m in sys.modules if m.startswith(('ply', 'shc.compiler.frontend'))))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "[]"


# What a command that only compiles must not load: NumPy, LLVM's library, rich (progress only on
# a terminal), the runtime, the host and amdgcn back ends. Each costs its import at every start.
NOT_FOR_COMPILING = ("numpy", "llvmlite.binding", "rich", "shc.runtime", "shc.compiler.backend.host")


def modules_loaded_by(tmp_path, *args) -> list[str]:
    """Run ``shc ARGS`` in a new process (a private cache) and return every module it imported."""
    listing = tmp_path / "modules.txt"
    code = ("import atexit, sys\n"
            f"atexit.register(lambda: open({str(listing)!r}, 'w').write('\\n'.join(sorted(sys.modules))))\n"
            f"sys.argv = ['shc'] + {[str(arg) for arg in args]!r}\n"
            "from shc.compiler.cli import main\n"
            "main()\n")
    env = dict(os.environ, SHC_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("SHC_OPT", None)  # the suite's (conftest.py); checking it imports the host back end
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return listing.read_text().split("\n")


@pytest.mark.parametrize("args", [
    ("compile", SAMPLES / "spd.hlsl", "--target", "rdna2", "--no-cache"),
    ("compile", SAMPLES / "prefix_sum.hlsl", "--target", "rdna2"),  # the output cache's key: llvmlite's version
    ("check", SAMPLES / "prefix_sum.hlsl"),
    ("regs", SAMPLES / "prefix_sum.hlsl", "--no-llvm", "--no-cache"),
], ids=["compile-no-cache", "compile", "check", "regs-no-llvm"])
def test_compiling_imports_no_runtime_numpy_llvm_or_rich(tmp_path, args):
    modules = modules_loaded_by(tmp_path, *args)
    assert "shc.compiler.pipeline" in modules  # it did compile
    loaded = [name for name in modules if name.startswith(NOT_FOR_COMPILING)]
    assert loaded == []
    if args[0] == "compile":
        assert not any(name.startswith("shc.compiler.backend.amdgcn") for name in modules)


def test_a_compile_runs_the_cycle_collector_at_most_a_few_times(tmp_path):
    """What a compilation builds lives until the process ends and is almost never a cycle: with
    Python's default threshold the collector scanned it 150 times compiling SPD (7% of the CPU)."""
    counted = tmp_path / "collections.txt"
    code = ("import atexit, gc, sys\n"
            "from shc.compiler.cli import main\n"
            "runs = []\n"
            "gc.callbacks.append(lambda phase, info: runs.append(info) if phase == 'start' else None)\n"
            f"atexit.register(lambda: open({str(counted)!r}, 'w').write(str(len(runs))))\n"
            f"sys.argv = ['shc', 'compile', {str(SAMPLES / 'spd.hlsl')!r}, '--target', 'rdna2', '--no-cache']\n"
            "main()\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "s_endpgm" in result.stdout  # it did compile
    assert int(counted.read_text()) <= 5


def test_version():
    result = installed_shc("--version")
    assert result.returncode == 0 and result.stdout.startswith("shc ")


# ---------------------------------------------------------------- internal compiler errors


def test_an_internal_error_in_sema_is_one_line_with_the_shader_position(shader, monkeypatch):
    from shc.compiler.frontend.expressions import ExpressionChecker

    def broken(self, source, target, coord):
        raise KeyError("the checker broke")

    # (not a visit_ method: the visitor caches those per class)
    monkeypatch.setattr(ExpressionChecker, "convert", broken)
    path = shader(VALID)
    result = CliRunner().invoke(cli.app, ["check", str(path)])
    assert result.exit_code == 70
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert lines[0] == (f"{path}:6:27: internal compiler error: KeyError: 'the checker broke' "
                        f"(in test_cli.py:{broken.__code__.co_firstlineno + 1})")


def test_an_internal_error_before_sema_names_the_file(shader, monkeypatch):
    from shc.compiler.frontend import parser

    def broken(self, source):
        raise RuntimeError("multi\nline\nmessage")

    monkeypatch.setattr(parser.Parser, "parse", broken)
    path = shader(VALID)
    result = CliRunner().invoke(cli.app, ["check", str(path)])
    assert result.exit_code == 70
    assert result.stderr.splitlines() == [
        f"{path}: internal compiler error: RuntimeError: multi line message "
        f"(in test_cli.py:{broken.__code__.co_firstlineno + 1})",
    ]


def test_invalid_define_names(shader):
    path = shader(VALID)
    result = shc("check", path, "-D", "1X")
    assert (result.returncode, result.stderr) == (1, "<command line>:1:1: error: invalid macro name '1X' in -D\n")


def test_an_internal_error_while_printing_the_ast(shader, monkeypatch):
    from shc.compiler.frontend import ast

    def broken(root):
        raise ValueError("cannot print")

    monkeypatch.setattr(ast, "dump", broken)
    result = CliRunner().invoke(cli.app, ["check", str(shader(VALID)), "--emit", "ast"])
    assert result.exit_code == 70
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert "internal compiler error: ValueError: cannot print" in result.stderr
