// conformance: break in an inner loop leaves only the inner loop
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 420 410 389 369 347 376 420 420
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint s = 0;
    for (uint i = 0; i < 5; i++) {
        for (uint j = 0; j < 5; j++) {
            if (j > i) break;
            if (i + j == a[id.x]) continue;
            s += i * 10 + j;
        }
    }
    o[id.x] = s;
}
