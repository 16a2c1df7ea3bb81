// conformance: transpose of a float1x4 is a float4x1
// buffer: o float32[4]
// expect: o = 1.0 2.0 3.0 4.0
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4x1 t = transpose(float1x4(1, 2, 3, 4));
    o[0] = t[0][0]; o[1] = t[1][0]; o[2] = t[2].x; o[3] = t._m30;
}
