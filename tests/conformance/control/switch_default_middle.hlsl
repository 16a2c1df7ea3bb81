// conformance: a default label in the middle is taken only when no case matches, and falls through
// buffer: a int32 = 1 2 3 4 -1
// buffer: o int32[5]
// expect: o = 1 2 3 52 52
StructuredBuffer<int> a;
RWStructuredBuffer<int> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    int r = 0;
    switch (a[id.x]) {
    case 1: r = 1; break;
    default: r = 50;
    case 2: r += 2; break;
    case 3: r = 3; break;
    }
    o[id.x] = r;
}
