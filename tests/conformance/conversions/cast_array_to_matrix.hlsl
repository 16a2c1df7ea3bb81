// conformance: (float2x3)arr fills a matrix row by row from a flat array
// buffer: o float32[6]
// expect: o = 1.0 2.0 3.0 4.0 5.0 6.0
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint a[6] = {1, 2, 3, 4, 5, 6};
    float2x3 m = (float2x3)a;
    o[0] = m[0][0]; o[1] = m[0][1]; o[2] = m[0][2]; o[3] = m[1][0]; o[4] = m[1][1]; o[5] = m._m12;
}
