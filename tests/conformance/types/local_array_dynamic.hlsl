// conformance: a local array written and read with run-time indexes
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 100 103 108 115 135 100 135 124
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint arr[8];
    for (uint i = 0; i < 8; i++) arr[i] = i * i;
    arr[a[id.x] % 8] = 99;
    o[id.x] = arr[(a[id.x] + 1) % 8] + arr[a[id.x] % 8];
}
