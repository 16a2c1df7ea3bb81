// conformance: a derived struct holds its base's fields first (structured-buffer layout), inherited members by name
// buffer: o uint32[8]
// expect: o = 1 2 3 4 11 12 13 14
struct A { uint a0; uint a1; };
struct B : A { uint b0; };
struct C : B { uint c0; };
RWStructuredBuffer<C> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    C v;
    v.a0 = id.x * 10 + 1;
    v.a1 = id.x * 10 + 2;
    v.b0 = id.x * 10 + 3;
    v.c0 = id.x * 10 + 4;
    o[id.x] = v;
}
