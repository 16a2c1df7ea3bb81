// conformance: min / max on int64_t compare as 64-bit signed
// buffer: a int64 = -1099511627776 1099511627776 3 -2
// buffer: o int64[4]
// expect: o = -1099511627781 1103806595072 6 -4
StructuredBuffer<int64_t> a;
RWStructuredBuffer<int64_t> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int64_t x = a[id.x];
    o[id.x] = max(x, (int64_t)-5) + min(x, (int64_t)0x100000000);
}
