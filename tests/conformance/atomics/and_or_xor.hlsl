// conformance: InterlockedAnd / Or / Xor combine every thread's bits
// buffer: o uint32 = 0 4294967295 0
// expect: o = 4294967295 4294901760 0
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    InterlockedOr(o[0], 1u << (id.x % 32));
    InterlockedAnd(o[1], ~(1u << (id.x % 16)));
    InterlockedXor(o[2], id.x);
}
