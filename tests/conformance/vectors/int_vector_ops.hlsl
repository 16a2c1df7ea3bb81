// conformance: int4 arithmetic, shifts and modulo per component
// buffer: a int32 = -7 8 3 -1 100 -100 5 1073741824
// buffer: o int32[8]
// expect: o = -4 14 11 -8 51 -151 20 -536870911
StructuredBuffer<int4> a;
RWStructuredBuffer<int4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    int4 v = a[id.x];
    o[id.x] = (v << int4(0, 1, 2, 3)) + v % 3 - (v >> 1);
}
