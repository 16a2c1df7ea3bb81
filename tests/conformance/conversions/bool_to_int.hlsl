// conformance: bool converts to 1 or 0, and any non-zero value to true
// buffer: a int32 = 0 1 -7 -2147483648
// buffer: o int32[4]
// expect: o = 0 11 11 11
StructuredBuffer<int> a;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = (int)(bool)x + 10 * (int)((float)x != 0.0f);
}
