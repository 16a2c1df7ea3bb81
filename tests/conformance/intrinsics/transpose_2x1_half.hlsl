// conformance: transpose of a half2x1
// buffer: o float16[2]
// expect: o = 0.5 -2.0
RWStructuredBuffer<half> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    half1x2 t = transpose(half2x1(0.5, -2.0));
    o[0] = t[0][0]; o[1] = t[0][1];
}
