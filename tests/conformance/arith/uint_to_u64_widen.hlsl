// conformance: uint widened to uint64_t zero-extends, int to int64_t sign-extends
// buffer: a int32 = -1 5 -2147483648 0
// buffer: b int32 = -1 1 0 -2147483648
// buffer: o int64[4]
// expect: o = 4294967294 6 -2147483648 2147483648
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<int64_t> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (int64_t)a[id.x] + (int64_t)(uint64_t)(uint)b[id.x];
}
