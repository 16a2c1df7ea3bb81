// conformance: bools in arithmetic convert to 0 and 1
// buffer: a int32 = -1 3 9
// buffer: oi int32[3]
// expect: oi = 0 11 12
StructuredBuffer<int> a;
RWStructuredBuffer<int> oi;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    bool p = a[id.x] > 0;
    bool q = a[id.x] > 5;
    oi[id.x] = p + q + (p * 10);
}
