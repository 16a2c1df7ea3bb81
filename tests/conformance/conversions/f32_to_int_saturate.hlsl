// conformance: float to int saturates out-of-range values and sends nan to 0 (D3D ftoi)
// D3D11.3 3.2.3.1 (ftoi): NaN becomes 0, values beyond the int range clamp to INT_MIN / INT_MAX.
// buffer: a float32 = 3e+09 -3e+09 inf -inf nan 2.1474836e+09
// buffer: o int32[6]
// expect: o = 2147483647 -2147483648 2147483647 -2147483648 0 2147483647
StructuredBuffer<float> a;
RWStructuredBuffer<int> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = (int)x;
}
