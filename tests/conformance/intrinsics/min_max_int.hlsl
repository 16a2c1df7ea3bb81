// conformance: min / max on int compare signed
// buffer: a int32 = -1 5 -1048576 7
// buffer: b int32 = 1 -5 3 7
// buffer: o int32[4]
// expect: o = -999 -4995 -1048575997 7007
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = min(a[id.x], b[id.x]) * 1000 + max(a[id.x], b[id.x]);
}
