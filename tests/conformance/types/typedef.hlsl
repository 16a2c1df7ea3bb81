// conformance: typedef names a type
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 0 2 6 12 30 72 182 10100
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
typedef uint word;
typedef vector<uint, 2> vec2;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    word w = (word)a[id.x];
    vec2 v = vec2(w, w + 1);
    o[id.x] = v.x * v.y;
}
