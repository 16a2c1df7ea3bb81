// conformance: int64_t to int keeps the low 32 bits
// buffer: a int64 = 4294967301 -1 1101659111424 -8589934595
// buffer: o int32[4]
// expect: o = 5 -1 -2147483648 -3
StructuredBuffer<int64_t> a;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int64_t x = a[id.x];
    o[id.x] = (int)x;
}
