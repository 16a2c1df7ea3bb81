// conformance: nested structs with vector members
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 3 33 63 93 153 243 393 3003
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
struct Inner { float2 p; uint q; };
struct Outer { Inner inner; float2 w; };

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Outer v;
    v.inner.p = float2(a[id.x], 1);
    v.inner.q = 3;
    v.w = v.inner.p.yx * v.inner.q;
    o[id.x] = uint(v.w.x + v.w.y * 10.0f);
}
