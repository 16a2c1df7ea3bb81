// conformance: methods read and write their object (implicit members, this.x), through locals, array elements and RW buffer elements
// buffer: io uint32 = 1 2 3 4
// buffer: o uint32[3]
// expect: io = 1 12 3 4
// expect: o = 13 25 40
struct Counter {
    uint n;
    void add(uint d) { n += d; }
    void add_twice(uint d) { add(d); this.add(d); }
    uint get() { return this.n; }
};
RWStructuredBuffer<Counter> io;
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main()
{
    Counter c;
    c.n = 1;
    c.add_twice(6);
    o[0] = c.get();
    Counter cs[3];
    for (uint i = 0; i < 3; i++) cs[i].n = i;
    cs[io[0].n].add(24);
    o[1] = cs[1].get();
    io[1].add(10);
    o[2] = io[1].get() * 3 + cs[2].n * 2;
}
