// conformance: a struct with an array member, indexed at run time
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 14 15 16 17 15 14 15 14
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
struct Bag { uint items[4]; uint count; };

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Bag b;
    for (uint i = 0; i < 4; i++) b.items[i] = i + 10;
    b.count = 4;
    o[id.x] = b.items[a[id.x] % b.count] + b.count;
}
