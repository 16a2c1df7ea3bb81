// conformance: arrays are passed to functions by value
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 500 601 702 803 1005 1308 1813 10600
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
uint sumAndClobber(uint v[3]) { uint s = v[0] + v[1] + v[2]; v[0] = 1000; return s; }

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint arr[3] = { a[id.x], 2, 3 };
    uint s = sumAndClobber(arr);
    o[id.x] = s * 100 + arr[0];
}
