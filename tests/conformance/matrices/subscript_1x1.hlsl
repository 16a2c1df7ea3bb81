// conformance: a 1x1 matrix: m[0][0] and m._m00
// buffer: o float16[2]
// expect: o = 0.25 0.25
RWStructuredBuffer<half> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    half1x1 m = half1x1(0.25);
    o[0] = m[0][0]; o[1] = m._m00;
}
