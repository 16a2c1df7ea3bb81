// conformance: a derived struct converts to its base implicitly (initialisation, assignment, argument) and by cast
// buffer: o uint32[4]
// expect: o = 5 12 7 30
struct Base { uint x; uint y; };
struct Derived : Base { uint z; };
RWStructuredBuffer<uint> o;

uint sum(Base b) { return b.x + b.y; }

[numthreads(1, 1, 1)]
void main()
{
    Derived d;
    d.x = 2; d.y = 3; d.z = 100;
    Base a = d;
    o[0] = a.x + a.y;
    d.y = 10;
    a = d;
    o[1] = sum(a);
    d.x = 4; d.y = 3;
    o[2] = sum(d);
    o[3] = ((Base)d).x * 5 + sum((Base)d) + 3;
}
