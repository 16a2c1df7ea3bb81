// conformance: uint &, |, ^ and ~ on every bit
// buffer: a uint32 = 4294967295 0 90 0 12345 1 4294967288 3
// buffer: b uint32 = 0 4294967295 15 0 255 3 7 5
// buffer: o uint32[8]
// expect: o = 4294967294 4294967295 69 4294967295 12230 4294967294 4294967287 0
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] & b[id.x]) ^ ((a[id.x] | b[id.x]) + ~b[id.x]);
}
