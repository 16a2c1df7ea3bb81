"""The conformance case reader: directives, values, and the file:line messages of malformed cases."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from case_format import CaseFormatError, parse_values, read_case, wave_sizes  # noqa: E402

KERNEL = "RWStructuredBuffer<uint> o;\n[numthreads(1, 1, 1)] void main() { o[0] = 1; }\n"


@pytest.fixture
def write(tmp_path):
    def write(header: str, name: str = "case.hlsl"):
        path = tmp_path / name
        path.write_text(header + KERNEL)
        return path
    return write


def test_a_complete_case(write):
    case = read_case(write("// conformance: one store\n// groups: 2,1,3\n// define: N=4\n// define: FLAG\n"
                           "// wave: 64\n// buffer: a float32 = 1.5 -0.0 inf nan 0x3f800000\n// buffer: o uint32[2]\n"
                           "// Free text, even with a colon: here, is not a directive\n"
                           "// expect: o = 1 0xFFFFFFFF\n// constant: k int32 = -1 2\n"
                           "// texture: t float32 2x1x2 = 1 2 3 4\n// sampler: s linear wrap\n"))
    assert case.description == "one store"
    assert case.groups == (2, 1, 3)
    assert case.defines == {"N": "4", "FLAG": "1"}
    assert case.waves == (64,)
    a = case.buffers["a"].values
    assert a.dtype == np.float32 and a[0] == 1.5 and np.signbit(a[1]) and np.isinf(a[2]) and np.isnan(a[3]) and a[4] == 1.0
    assert case.buffers["o"].values.tolist() == [0, 0]
    assert case.expects["o"][0].tolist() == [1, 0xFFFFFFFF]
    assert case.constants["k"].values.tolist() == [-1, 2]
    assert case.textures["t"].texels.shape == (1, 2, 2)
    assert case.samplers["s"] == ("linear", "wrap")


def test_an_error_case_runs_once(write):
    path = write("// conformance: rejected\n// error: undeclared identifier\n")
    assert read_case(path).error == "undeclared identifier"


@pytest.mark.parametrize(("header", "line", "message"), [
    ("// conformance: x\n// buffer: o uint32[1]\n// expcet: o = 1\n", 3, "unknown directive 'expcet:'"),
    ("// conformance: x\n// buffer: o uint32[2]\n// expect: o = 1\n", 3, "gives 1 values; the buffer has 2"),
    ("// conformance: x\n// buffer: o uint32[1]\n// expect: p = 1\n", 3, "'expect: p' must follow"),
    ("// conformance: x\n// buffer: o uint32 = -1\n// expect: o = 1\n", 2, "-1 is out of range for uint32"),
    ("// conformance: x\n// buffer: o int16 = 1.5\n// expect: o = 1\n", 2, "'1.5' is not an integer"),
    ("// conformance: x\n// buffer: o float32 = one\n// expect: o = 1\n", 2, "'one' is not a number"),
    ("// conformance: x\n// buffer: o uint16 = 0x10000\n// expect: o = 1\n", 2, "do not fit uint16"),
    ("// conformance: x\n// buffer: o uint31[1]\n// expect: o = 1\n", 2, "unknown element type 'uint31'"),
    ("// conformance: x\n// groups: 1,0,1\n// buffer: o uint32[1]\n// expect: o = 1\n", 2, "three positive integers"),
    ("// conformance: x\n// wave: 16\n// buffer: o uint32[1]\n// expect: o = 1\n", 2, "32, 64 or both"),
    ("// conformance: x\n// buffer: o uint32[1]\n", 1, "no 'expect:' line"),
    ("// buffer: o uint32[1]\n// expect: o = 1\n", 1, "missing '// conformance:"),
    ("// conformance: x\n// buffer: o uint32[1]\n// buffer: o uint32[1]\n// expect: o = 1\n", 3, "'o' is bound twice"),
    ("// conformance: x\n// texture: t float32 2x2 = 1 2 3\n// buffer: o uint32[1]\n// expect: o = 1\n", 2, "4 values, got 3"),
    ("// conformance: x\n// sampler: s bilinear clamp\n// buffer: o uint32[1]\n// expect: o = 1\n", 2, "'sampler:' is"),
])
def test_malformed_cases_name_file_and_line(write, header, line, message):
    path = write(header)
    with pytest.raises(CaseFormatError) as failure:
        read_case(path)
    assert str(failure.value).startswith(f"{path}:{line}: ")
    assert message in str(failure.value)


def test_collection_never_fails_on_a_malformed_case(write):
    assert wave_sizes(write("// wave: sixteen\n")) == (32, 64)
    assert wave_sizes(write("// conformance: x\n// wave: 32\n// buffer: o uint32[1]\n// expect: o = 1\n")) == (32,)


def test_values_round_to_the_element_type():
    assert parse_values("0.1", np.dtype(np.float32))[0] == np.float32(0.1)
    assert parse_values("65520", np.dtype(np.float16))[0] == np.inf
    assert parse_values("0xffff 0x8000", np.dtype(np.int16)).tolist() == [-1, -32768]
    assert parse_values("18446744073709551615", np.dtype(np.uint64))[0] == 2**64 - 1


# -- the runner on cases outside the corpus ------------------------------------------------

STORE = ("StructuredBuffer<float> a;\nRWStructuredBuffer<float> o;\n"
         "[numthreads(2, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { o[id.x] = -a[id.x]; }\n")


@pytest.fixture
def runner(tmp_path, monkeypatch):
    from shc.runtime import jit

    # by path and under its own name: another folder has a test_conformance.py too
    spec = importlib.util.spec_from_file_location("conformance_runner", Path(__file__).with_name("test_conformance.py"))
    test_conformance = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(test_conformance)

    monkeypatch.setattr(jit, "default_cache_dir", lambda: tmp_path / "kernels")
    return test_conformance


def test_runner_passes_a_right_case(tmp_path, runner):
    path = tmp_path / "right.hlsl"
    path.write_text("// conformance: negation\n// buffer: a float32 = 0 nan\n// buffer: o float32[2]\n"
                    "// expect: o = -0.0 nan\n" + STORE)
    runner.test_case(path, 32)


def test_runner_reports_a_wrong_value_with_its_bits(tmp_path, runner):
    path = tmp_path / "wrong.hlsl"
    path.write_text("// conformance: negation\n// buffer: a float32 = 0 1\n// buffer: o float32[2]\n"
                    "// expect: o = 0.0 -1\n" + STORE)
    with pytest.raises(pytest.fail.Exception) as failure:
        runner.test_case(path, 64)
    assert str(failure.value) == (f"{path}:4: wave64: 'o' differs at 1 of 2: "
                                  "[0] -0.0 (0x80000000) (expected 0.0 (0x00000000))")


def test_runner_reports_a_malformed_case(tmp_path, runner):
    path = tmp_path / "bad.hlsl"
    path.write_text("// conformance: negation\n// buffer: a float32 = 0 1\n// expect: o = 1\n" + STORE)
    with pytest.raises(pytest.fail.Exception) as failure:
        runner.test_case(path, 32)
    assert str(failure.value) == f"malformed case: {path}:3: 'expect: o' must follow the 'buffer: o ...' line it checks"


def test_a_known_failure_carries_its_reason(write):
    case = read_case(write("// conformance: one store\n// known_failure: shc drops the store\n"
                           "// buffer: o uint32[1]\n// expect: o = 1\n"))
    assert case.known_failure == "shc drops the store"
    assert read_case(write("// conformance: one store\n// buffer: o uint32[1]\n// expect: o = 1\n")).known_failure is None
    with pytest.raises(CaseFormatError, match=r"case.hlsl:2: 'known_failure:' needs the reason"):
        read_case(write("// conformance: one store\n// known_failure:\n// buffer: o uint32[1]\n// expect: o = 1\n"))
