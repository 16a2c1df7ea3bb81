"""The shader model (``-T cs_6_x``) and HLSL version (``-HV``) a program is checked against.

Error tests assert the message and its exact position; ``kernel()`` puts the body on lines
4 and later, indented four columns.
"""

import os
import sys

import pytest

from shc.compiler.frontend.language import ProfileError, parse_hlsl_version, parse_profile

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import errors, init_type, kernel, local, valid  # noqa: E402


@pytest.mark.parametrize("text, model", [("cs_6_0", (6, 0)), ("cs_6_6", (6, 6)), ("cs_6_8", (6, 8))])
def test_compute_profiles(text, model):
    assert parse_profile(text) == model


@pytest.mark.parametrize("text, words", [
    ("ps_6_0", "not a compute profile"), ("lib_6_6", "not a compute profile"), ("vs_6_6", "'vs' shaders"),
    ("cs_6_9", "unknown shader model 6.9"), ("cs_5_0", "unknown shader model 5.0"), ("compute", "unknown profile"),
])
def test_other_profiles_are_refused(text, words):
    with pytest.raises(ProfileError, match=words):
        parse_profile(text)


def test_hlsl_versions():
    assert parse_hlsl_version("2018") == 2018
    with pytest.raises(ProfileError, match="expected 2018 or 2021"):
        parse_hlsl_version("2016")


def model(minor):
    return {"shader_model": (6, minor)}


def test_wave_size_needs_6_6():
    text = "[WaveSize(32)]\n[numthreads(64, 1, 1)]\nvoid main() { }\n"
    assert errors(text, **model(5)) == [(1, 2, "[WaveSize] requires shader model 6.6 or later (-T cs_6_5 was given)")]
    valid(text, **model(6))


def test_64_bit_atomics_need_6_6():
    text = kernel("InterlockedAdd(counters[0], (uint64_t)1);\nInterlockedAdd(small[0], 1u);",
                  before="RWStructuredBuffer<uint64_t> counters;\nRWStructuredBuffer<uint> small;\n")
    assert errors(text, **model(5)) == [
        (6, 5, "64-bit atomic 'InterlockedAdd' requires shader model 6.6 or later (-T cs_6_5 was given)"),
    ]
    valid(text, **model(6))


def test_wave_ops_are_allowed_from_6_0():
    valid(kernel("uint s = WaveActiveSum(id.x);\nfloat q = QuadReadAcrossX(1.0);"), **model(0))


@pytest.mark.parametrize("name, needed", [("IsHelperLane()", "6.6"), ("ResourceDescriptorHeap", "6.6")])
def test_names_dxc_gates_are_reported_by_model(name, needed):
    text = kernel(f"bool h = {name};")
    assert errors(text, **model(4)) == [
        (4, 14, f"'{name.rstrip('()')}' requires shader model {needed} or later (-T cs_6_4 was given)"),
    ]


def test_partition_wave_ops_need_6_5():
    text = kernel("uint4 m = WaveMatch(id.x & 3);\nuint s = WaveMultiPrefixSum(id.x, m);")
    assert errors(text, **model(4)) == [
        (4, 15, "'WaveMatch' requires shader model 6.5 or later (-T cs_6_4 was given)"),
        (5, 14, "'WaveMultiPrefixSum' requires shader model 6.5 or later (-T cs_6_4 was given)"),
    ]
    valid(text, **model(5))


def test_explicit_16_bit_types_need_6_2():
    text = kernel("float16_t a = 1;\nuint16_t2 b = 2;")
    assert errors(text, **model(1)) == [
        (4, 5, "16-bit type 'float16_t' requires shader model 6.2 or later (-T cs_6_1 was given)"),
        (5, 5, "16-bit type 'uint16_t2' requires shader model 6.2 or later (-T cs_6_1 was given)"),
    ]
    program = valid(text, **model(2))
    assert str(local(program, "a").type) == "half"


def test_minimum_precision_types_are_32_bit_below_6_2():
    text = kernel("half a = 1.5h;\nmin16int2 b = 2;\nhalf c = a * 2;")
    below = valid(text, **model(1))
    assert [str(local(below, name).type) for name in "abc"] == ["float", "int2", "float"]
    assert init_type(below, "a") == "float"  # the literal 1.5h too
    native = valid(text, **model(6))
    assert [str(local(native, name).type) for name in "abc"] == ["half", "int16_t2", "half"]


def test_hlsl_2021_vector_condition_points_to_select():
    text = kernel("float2 v = 1;\nfloat2 r = v > 0 ? v : -v;")
    assert errors(text) == [(5, 18, "condition for short-circuiting ternary operator must be scalar; "
                                    "for vectors use 'select'")]
    assert init_type(valid(text, hlsl_version=2018), "r") == "float2"


def test_hlsl_2018_vector_logical_operators():
    program = valid(kernel("bool2 a = id.xy > 1;\nbool2 b = a && true;\nbool2 c = a || !a;"), hlsl_version=2018)
    assert init_type(program, "b") == "bool2"
    assert init_type(program, "c") == "bool2"


@pytest.mark.parametrize("call", ["select(true, 1, 2)", "and(true, false)", "or(true, false)"])
def test_hlsl_2018_has_no_select_and_or(call):
    text = kernel(f"int r = {call};")
    name = call.split("(")[0]
    assert errors(text, hlsl_version=2018) == [(4, 13, f"use of undeclared identifier '{name}'")]
    valid(text)
