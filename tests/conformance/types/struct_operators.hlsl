// conformance: HLSL 2021 member operators (binary, unary, comparison, []) on a struct
// buffer: o float32[6]
// expect: o = 21 42 -21 -42 1 0
struct V2 {
    float x, y;
    V2 operator+(V2 b) { V2 r; r.x = x + b.x; r.y = y + b.y; return r; }
    V2 operator*(float s) { V2 r; r.x = x * s; r.y = y * s; return r; }
    V2 operator-() { V2 r; r.x = -x; r.y = -y; return r; }
    bool operator==(V2 b) { return x == b.x && y == b.y; }
    float operator[](uint i) { return i == 0 ? x : y; }
};
RWStructuredBuffer<float> o;

V2 v2(float x, float y) { V2 r; r.x = x; r.y = y; return r; }

[numthreads(1, 1, 1)]
void main()
{
    V2 a = v2(1, 2), b = v2(10, 20);
    V2 c = a + b * 2;
    V2 d = -c;
    o[0] = c.x;
    o[1] = c.y;
    o[2] = d[0];
    o[3] = d[1];
    o[4] = (a + a == v2(2, 4)) ? 1 : 0;
    o[5] = (a == b) ? 1 : 0;
}
