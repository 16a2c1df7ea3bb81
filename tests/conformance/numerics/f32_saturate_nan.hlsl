// conformance: saturate(nan) is 0 (D3D) and saturate clamps to [0, 1]
// D3D11.3 3.1.3: the saturate (_sat) modifier sends NaN to 0.
// buffer: a float32 = nan -1 0.5 2 inf -inf 1
// buffer: o float32[7]
// expect: o = 0 0 0.5 1 1 0 1
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(7, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = saturate(x);
}
