// conformance: constant-folded half arithmetic rounds at 16 bits
// buffer: o float16[4]
// expect: o = 2.048e+03 0.3333 inf 0.1
RWStructuredBuffer<half> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = (half)2048 + (half)1;
    o[1] = (half)1 / (half)3;
    o[2] = (half)65504 * (half)2;
    o[3] = (half)0.1;
}
