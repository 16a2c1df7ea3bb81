// conformance: a static global is per thread and starts from its initializer
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 6 7 8 9 11 14 19 106
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
static uint counter = 5;
void bumpCounter() { counter++; }

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    counter += a[id.x];
    bumpCounter();
    o[id.x] = counter;
}
