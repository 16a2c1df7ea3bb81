// conformance: a run-time index inside a structured buffer element's array member
// buffer: a uint32 = 0 1 5
// buffer: bags uint32 = 1 2 3 9 4 5 6 9 7 8 9 9
// buffer: o uint32[3]
// expect: bags = 101 2 3 9 4 105 6 9 7 8 109 9
// expect: o = 2 6 7
struct Bag { uint items[3]; uint tag; };
StructuredBuffer<uint> a;
RWStructuredBuffer<Bag> bags;
RWStructuredBuffer<uint> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint j = a[id.x] % 3;
    bags[id.x].items[j] += 100;
    o[id.x] = bags[id.x].items[(j + 1) % 3];
}
