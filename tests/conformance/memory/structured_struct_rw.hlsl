// conformance: RWStructuredBuffer of a struct: read one field, write another in place
// buffer: ps uint32 = 0 0 1065353216 1073741824 5 1065353216 1065353216 0 0 0
// expect: ps = 1065353216 1065353216 1065353216 1065353216 6 1065353216 0 0 3212836864 1
struct Particle { float2 pos; float2 vel; uint age; };
RWStructuredBuffer<Particle> ps;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Particle p = ps[id.x];
    p.vel.y -= 1.0f;
    ps[id.x].pos += p.vel;
    ps[id.x].vel = p.vel;
    ps[id.x].age = p.age + 1;
}
