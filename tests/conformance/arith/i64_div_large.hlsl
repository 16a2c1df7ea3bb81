// conformance: int64_t division of values beyond 32 bits
// buffer: a int64 = 1000000000000000 -1000000000000000 4611686018427387904 -7
// buffer: b int64 = 7 7 -3 2
// buffer: o int64[4]
// expect: o = 142857142857142 -142857142857142 -1537228672809129301 -3
StructuredBuffer<int64_t> a;
StructuredBuffer<int64_t> b;
RWStructuredBuffer<int64_t> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] / b[id.x];
}
