// conformance: an unsuffixed float literal used with a double keeps double precision (DXC literal float)
// DXC types 0.1 as a literal float that takes the double operand's precision, not float's.
// buffer: d float64 = 1 3
// buffer: od float64[4]
// expect: od = 1.1 3.1 1.1 3.3000000000000003
StructuredBuffer<double> d;
RWStructuredBuffer<double> od;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    od[id.x] = d[id.x] + 0.1;
    od[2 + id.x] = d[id.x] * 1.1;
}
