// conformance: a local array of structs indexed at run time
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 15 36 57 38 36 15 36 15
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
struct Pair { uint a; uint b; };

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Pair arr[4];
    for (uint i = 0; i < 4; i++) { arr[i].a = i; arr[i].b = i * 10; }
    uint j = a[id.x] % 4;
    arr[j].b += 5;
    o[id.x] = arr[j].a + arr[j].b + arr[(j + 1) % 4].b;
}
