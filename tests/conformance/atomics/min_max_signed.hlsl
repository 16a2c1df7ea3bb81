// conformance: InterlockedMin / InterlockedMax on int compare signed
// buffer: o int32 = 0 0
// expect: o = -40 23
RWStructuredBuffer<int> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    int v = (int)id.x - 40;
    InterlockedMin(o[0], v);
    InterlockedMax(o[1], v);
}
