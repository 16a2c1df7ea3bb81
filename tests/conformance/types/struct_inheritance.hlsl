// conformance: a struct derived from another has the base's members first
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 3 1013 2023 3033 5053 8083 13133 101003
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
struct Base { uint x; };
struct Derived : Base { uint y; };

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Derived d;
    d.x = a[id.x];
    d.y = 3;
    Base b = (Base)d;
    o[id.x] = d.x * 10 + d.y + b.x * 1000;
}
