"""The transcendentals leave the IR lowering as DXC writes them, down to the primitives
(ir/lower/intrinsics_math.py): golden IR for the DXC formulas, no other math function left
for any shape or width, and the values of the quadrant and range rules."""

import math
import os
import sys

import numpy as np
import pytest

from shc.compiler.ir.ops import Op

sys.path.insert(0, os.path.dirname(__file__))
from from_ast_helpers import ir, lower_source, run  # noqa: E402

PRIMITIVES = {"exp2", "log2", "sin", "cos", "rsqrt", "rcp", "sqrt"}
ALL = ("exp(x) + log(x) + log10(x) + pow(x, y) + ldexp(x, y) + tan(x) + sinh(x) + cosh(x) + tanh(x)"
       " + atan(x) + atan2(x, y) + asin(x) + acos(x) + sin(x) + cos(x) + exp2(x) + log2(x) + rsqrt(x)")


def kernel(body: str, declarations: str = "float x = a[i]; float y = a[i + 1];") -> str:
    return f"""
    RWStructuredBuffer<float> a;
    RWStructuredBuffer<float4> o;
    [numthreads(32, 1, 1)]
    void main(uint i : SV_GroupIndex) {{ {declarations} {body} }}
    """


def math_functions(source: str) -> list[tuple[str, str]]:
    module = lower_source(source)
    return [(inst.attrs["fn"], str(inst.type)) for inst in module.function.instructions() if inst.op is Op.MATH]


def test_exp_log_and_pow_are_dxc_formulas():
    text = ir(kernel("o[i] = float4(exp(x), log(x), log10(x), pow(x, y));"))
    lines = [line.split("=", 1)[1].strip() for line in text.splitlines() if "=" in line and "%" in line]
    assert "const float {value=1.4426950216293335}" in lines  # f32(log2 e)
    assert "const float {value=0.6931471824645996}" in lines  # f32(ln 2)
    assert "const float {value=0.3010300099849701}" in lines  # f32(ln 2 / ln 10)
    assert [fn for fn, _ in math_functions(kernel("o[i] = float4(exp(x), log(x), log10(x), pow(x, y));"))] \
        == ["exp2", "log2", "log2", "log2", "exp2"]


def test_pow_of_the_constant_two_is_a_multiply():
    text = ir(kernel("o[i] = pow(float4(x, y, x, y), 2.0f);"))
    assert "math" not in text
    assert any(line.strip().startswith("%") and " mul float4 " in line for line in text.splitlines())
    assert [fn for fn, _ in math_functions(kernel("o[i] = pow(x, 2.5f);"))] == ["log2", "exp2"]


@pytest.mark.parametrize("declarations, store", [
    ("float x = a[i]; float y = a[i + 1];", "o[i] = ({ALL}).xxxx;"),
    ("float3 x = float3(a[i], a[i + 1], 2); float3 y = x.zxy;", "o[i] = ({ALL}).xyzx;"),
    ("half2 x = half2(a[i], 3); half2 y = x.yx;", "o[i] = (float4)({ALL}).xyxy;"),
    ("float2x2 x = float2x2(a[i], 1, 2, a[i + 1]); float2x2 y = x;", "o[i] = ({ALL})[1].xyxy;"),
])
def test_only_primitives_are_left(declarations, store):
    functions = math_functions(kernel(store.format(ALL=ALL), declarations))
    assert {fn for fn, _ in functions} == PRIMITIVES
    assert {t for _, t in functions} <= {"float", "float2", "float3"}  # halves go through float


def test_half_primitives_go_through_float():
    text = ir(kernel("o[i] = (float)sin((half)x);"))
    assert 'math float %' in text and '{fn="sin"}' in text and "convert half" in text


def test_atan2_follows_dxcs_quadrants():
    pairs = [(0.0, 0.0), (-0.0, 0.0), (0.0, -1.0), (-0.0, -1.0), (1.0, 0.0), (-1.0, 0.0), (1.0, -1.0),
             (-1.0, -1.0), (1.0, 1.0), (-2.0, 3.0)]
    y = np.array([p[0] for p in pairs] + [0.0] * (32 - len(pairs)), np.float32)
    x = np.array([p[1] for p in pairs] + [1.0] * (32 - len(pairs)), np.float32)
    source = """
    RWStructuredBuffer<float> ys; RWStructuredBuffer<float> xs; RWStructuredBuffer<float> o;
    [numthreads(32, 1, 1)] void main(uint i : SV_GroupIndex) { o[i] = atan2(ys[i], xs[i]); }
    """
    got = run(source, {"ys": y, "xs": x, "o": np.zeros(32, np.float32)}).buffers["o"][:len(pairs)]
    pi = np.float32(math.pi)
    expected = [pi / 2, pi / 2, pi, pi, pi / 2, -pi / 2, 3 * pi / 4, -3 * pi / 4, pi / 4, math.atan2(-2, 3)]
    assert got.tolist() == pytest.approx(expected, abs=3e-7)


def test_inverse_trigonometry_at_its_ends():
    xs = np.array([1.0, -1.0, 1.5, -0.0, np.inf, -np.inf] + [0.0] * 26, np.float32)
    source = """
    RWStructuredBuffer<float> a; RWStructuredBuffer<float4> o;
    [numthreads(32, 1, 1)] void main(uint i : SV_GroupIndex) {
        o[i] = float4(asin(a[i]), acos(a[i]), atan(a[i]), tanh(a[i] * 100));
    }
    """
    got = run(source, {"a": xs, "o": np.zeros((32, 4), np.float32)}).buffers["o"][:6]
    half_pi, pi = np.float32(math.pi / 2), np.float32(math.pi)
    assert got[0].tolist() == [half_pi, 0.0, np.float32(math.pi / 4), 1.0]
    assert got[1].tolist() == [-half_pi, pi, -np.float32(math.pi / 4), -1.0]
    assert np.isnan(got[2][:2]).all()
    assert math.copysign(1.0, got[3][2]) == -1.0 and got[3][2] == 0.0  # atan(-0) is -0
    assert got[4][2] == half_pi and got[5][2] == -half_pi and got[4][3] == 1.0 and got[5][3] == -1.0
