// conformance: overloads are picked by argument type
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 4 107 210 313 519 828 1343 10304
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
uint pick(uint x) { return x + 1; }
uint pick(float x) { return uint(x * 2.0f) + 3; }
uint pick(int x, int y) { return uint(x * 100 * y); }

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = pick(a[id.x]) + pick((float)a[id.x]) + pick(int(a[id.x]), 1);
}
