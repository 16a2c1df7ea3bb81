// conformance: Buffer<float4> and RWBuffer<uint> loads and stores
// buffer: tb float32 = 1 2 3 4 0 0 1 0
// buffer: ub uint32[2]
// expect: ub = 4321 100
Buffer<float4> tb;
RWBuffer<uint> ub;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float4 v = tb[id.x];
    ub[id.x] = (uint)dot(v, float4(1, 10, 100, 1000));
}
