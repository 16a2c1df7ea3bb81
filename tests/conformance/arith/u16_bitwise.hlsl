// conformance: uint16_t &, |, ^ and ~ on every bit
// buffer: a uint16 = 65535 0 90 0 12345 1 65528 3
// buffer: b uint16 = 0 65535 15 0 255 3 7 5
// buffer: o uint16[8]
// expect: o = 65534 65535 69 65535 12230 65534 65527 0
StructuredBuffer<uint16_t> a;
StructuredBuffer<uint16_t> b;
RWStructuredBuffer<uint16_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] & b[id.x]) ^ ((a[id.x] | b[id.x]) + ~b[id.x]);
}
