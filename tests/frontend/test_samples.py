"""Every sample is a valid shader, silently: in-process, through the CLI, and each SPD build.

``samples/spd.hlsl`` has three switches (``A_HALF``, ``SPD_LINEAR_SAMPLER``,
``SPD_NO_WAVE_OPERATIONS``); all eight builds must check, and each must really take its
path (16-bit entry point, a sampler, no wave or quad intrinsics).
"""

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from shc.compiler.diagnostics import CompileError, Diagnostics
from shc.compiler.frontend import ast
from shc.compiler.frontend import hlsl_types as T
from shc.compiler.pipeline import Options, check_file

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.hlsl"))
SPD = ROOT / "samples" / "spd.hlsl"
SPD_SWITCHES = ("A_HALF", "SPD_LINEAR_SAMPLER", "SPD_NO_WAVE_OPERATIONS")
SCRIPT = Path(sys.executable).with_name("shc")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "shc.compiler.cli"]


def check(path, *defines):
    diagnostics = Diagnostics()
    program = check_file(str(path), Options(defines={name: "1" for name in defines}), diagnostics)
    assert diagnostics.render() == ""
    return program


def reachable_calls(program):
    """Names of every intrinsic and user function called from the entry, transitively."""
    names, seen, todo = set(), set(), [program.entry]
    while todo:
        func = todo.pop()
        if id(func) in seen:
            continue
        seen.add(id(func))
        stack = [func.body]
        while stack:
            current = stack.pop()
            stack.extend(current.children())
            if isinstance(current, ast.Call):
                names.add(current.name)
                if isinstance(current.decl, ast.FuncDecl):
                    todo.append(current.decl)
    return names


def test_there_are_samples():
    assert len(SAMPLES) >= 5
    assert SPD in SAMPLES


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.name)
def test_sample_checks_without_diagnostics(sample):
    program = check(sample)
    assert program.entry.name == "main"
    x, y, z = program.numthreads
    assert x * y * z <= 1024
    assert program.groupshared_bytes <= 32 * 1024


@pytest.mark.parametrize("defines", [(), SPD_SWITCHES], ids=["default", "all-switches"])
def test_spd_through_the_cli(defines):
    args = [arg for name in defines for arg in ("-D", name)]
    result = subprocess.run(COMMAND + ["check", str(SPD), *args], capture_output=True, text=True, timeout=120)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_the_wave_size_sample_asks_for_wave64():
    program = check(ROOT / "samples" / "downsample_shuffle.hlsl")
    assert program.wave_size == 64


BUILDS = [tuple(name for name, on in zip(SPD_SWITCHES, flags) if on)
          for flags in itertools.product((False, True), repeat=3)]


@pytest.mark.parametrize("defines", BUILDS, ids=lambda names: "+".join(names) or "default")
def test_spd_builds(defines):
    program = check(SPD, *defines)
    calls = reachable_calls(program)
    assert program.numthreads == (256, 1, 1)
    assert ("SpdDownsampleH" in calls) == ("A_HALF" in defines)
    assert ("SpdDownsample" in calls) == ("A_HALF" not in defines)
    resources = {decl.name for decl in program.resources}
    assert ("srcSampler" in resources) == ("SPD_LINEAR_SAMPLER" in defines)
    wave_ops = {name for name in calls if name.startswith(("Wave", "Quad"))}
    if "SPD_NO_WAVE_OPERATIONS" in defines:
        assert wave_ops == set()
    else:
        assert wave_ops
    scratch = {decl.name: decl.type for decl in program.groupshared}
    if "A_HALF" in defines:
        assert scratch["spdIntermediateRG"] == T.ArrayType(T.ArrayType(T.VectorType(T.HALF, 2), 16), 16)
    else:
        assert scratch["spdIntermediateR"] == T.ArrayType(T.ArrayType(T.FLOAT, 16), 16)


def test_spd_packed_only_without_half_is_refused():
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        check_file(str(SPD), Options(defines={"SPD_PACKED_ONLY": "1"}), diagnostics)
    assert diagnostics.items[0].message.startswith("#error")
