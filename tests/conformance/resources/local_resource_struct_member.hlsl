// conformance: a struct holding a resource member, passed to a function and returned from one, writes through the member
// wave: both
// buffer: a uint32[4]
// buffer: b uint32[4]
// expect: a = 0 0 0 0
// expect: b = 5 6 7 8
RWStructuredBuffer<uint> a;
RWStructuredBuffer<uint> b;

struct Target { RWStructuredBuffer<uint> buf; uint offset; };

Target make(RWStructuredBuffer<uint> x, uint offset) { Target t; t.buf = x; t.offset = offset; return t; }
void write(Target t, uint i) { t.buf[i] = i + t.offset; }

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Target t = make(a, 5);
    t.buf = b;
    write(t, id.x);
}
