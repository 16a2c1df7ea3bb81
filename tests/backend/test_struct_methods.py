"""HLSL 2021 structs run through the host JIT, by value: inheritance, methods that read and
write their object (locals, array elements, RW buffer elements, constant buffer values, whose
writes DXC drops), static, const and out-of-line methods, member operators.

tests/backend/test_executors_agree.py runs the same constructs through the interpreter and the
listing simulator; here the expected values come from a Python model of each kernel.
"""

from __future__ import annotations

import numpy as np
import pytest

import shc

ACCUMULATE = """
RWStructuredBuffer<uint> o : register(u0);
cbuffer C : register(b0) { uint idx; }
struct Acc {
    uint v[4];
    uint n;
    void push(uint x) { v[n] = x; n++; }
    uint total() { uint s = 0; for (uint i = 0; i < n; i++) s += v[i]; return s; }
};
class Scaled : Acc {
    uint k;
    uint scaled() { return total() * k; }
    void push2(uint x) { push(x); this.push(x * k); }
};
uint sum_of(Acc a) { return a.total(); }

[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
    Scaled s;
    s.n = 0;
    s.k = 3;
    s.push(tid);
    s.push2(idx + tid);
    Acc base = s;
    base.push(7);
    o[tid] = s.scaled() * 1000 + base.total() + sum_of(s) * 100000;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_methods_on_a_derived_object_and_its_base_part(wave):
    out = np.zeros(64, np.uint32)
    shc.compile(ACCUMULATE, wave_size=wave).dispatch((1, 1, 1), o=out, idx=5)
    for tid, value in enumerate(out.tolist()):
        pushed = [tid, 5 + tid, 3 * (5 + tid)]
        assert value == 3 * sum(pushed) * 1000 + sum(pushed) + 7 + sum(pushed) * 100000


OBJECTS = """
struct P {
    float x;
    void inc() { x += 1; }
    float peek() { return x; }
    static float twice(float v) { return v * 2; }
    float scaled(float k) const;
};
float P::scaled(float k) const { return x * k * P::twice(1); }
RWStructuredBuffer<P> ps : register(u0);
RWStructuredBuffer<float> o : register(u1);
cbuffer C : register(b0) { P cp; uint idx; }
P make(float x) { P p; p.x = x; return p; }

[numthreads(1, 1, 1)]
void main() {
    ps[idx].inc();
    ps[idx + 1].inc();
    ps[idx + 1].inc();
    o[0] = ps[idx].peek();
    cp.inc();                // a method writing a constant buffer value: the write is dropped
    o[1] = cp.x;
    o[2] = make(7).peek();
    P arr[3];
    for (uint i = 0; i < 3; i++) arr[i].x = i;
    arr[idx].inc();
    o[3] = arr[0].x + arr[1].x * 10 + arr[2].x * 100;
    const P fixed = arr[2];
    o[4] = fixed.scaled(3) + cp.twice(4);
}
"""


def test_a_method_writes_back_to_the_object_it_was_called_on():
    ps = np.zeros(4, [("x", "<f4")])
    out = np.zeros(5, np.float32)
    cp = np.array([(3.0,)], [("x", "<f4")])[0]
    shc.compile(OBJECTS, wave_size=32).dispatch((1, 1, 1), ps=ps, o=out, cp=cp, idx=1)
    assert ps["x"].tolist() == [0, 1, 2, 0]
    arr = [0.0, 1.0, 2.0]
    arr[1] += 1
    assert out.tolist() == [1, 3, 7, arr[0] + arr[1] * 10 + arr[2] * 100, arr[2] * 3 * 2 + 8]


OPERATORS = """
RWStructuredBuffer<float> o : register(u0);
struct V2 {
    float x, y;
    V2 operator+(V2 b) { V2 r; r.x = x + b.x; r.y = y + b.y; return r; }
    V2 operator*(float s) { V2 r; r.x = x * s; r.y = y * s; return r; }
    V2 operator-() { V2 r; r.x = -x; r.y = -y; return r; }
    bool operator==(V2 b) { return x == b.x && y == b.y; }
    float operator[](uint i) { return i == 0 ? x : y; }
};
V2 v2(float x, float y) { V2 r; r.x = x; r.y = y; return r; }

[numthreads(8, 1, 1)]
void main(uint tid : SV_GroupIndex) {
    V2 a = v2(tid, 2), b = v2(10, tid * 3);
    V2 c = a + b * 2;
    V2 d = -c;
    o[tid * 4 + 0] = c.x;
    o[tid * 4 + 1] = d[1];
    o[tid * 4 + 2] = (a + a == v2(2 * tid, 4)) ? 1 : 0;
    o[tid * 4 + 3] = (a == b) ? 1 : 0;
}
"""


def test_member_operators():
    out = np.zeros(32, np.float32)
    shc.compile(OPERATORS, wave_size=32).dispatch((1, 1, 1), o=out)
    expected = []
    for tid in range(8):
        c = (tid + 20, 2 + tid * 6)
        expected += [c[0], -c[1], 1, 1 if (tid, 2) == (10, tid * 3) else 0]
    assert out.tolist() == expected
