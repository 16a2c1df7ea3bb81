// conformance: Load<S>/Store<S> of a struct: its members at the structured-buffer offsets (float 0, uint2 4, half 12)
// buffer: raw uint32 = 0x40400000 5 6 0x00003c00 0 0 0 0
// expect: raw = 0x40400000 5 6 0x00003c00 0x40c00000 6 5 0x00004000
struct S { float a; uint2 c; half h; };
RWByteAddressBuffer raw;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    S s = raw.Load<S>(0);
    s.a *= 2;
    s.c = s.c.yx;
    s.h += s.h;
    raw.Store<S>(16, s);
}
