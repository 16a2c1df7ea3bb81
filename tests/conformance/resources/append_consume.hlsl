// conformance: Consume takes the elements below the counter (decrementing it), Append stores at the counter and increments it
// buffer: src uint32 = 10 20 30 40 50 60 70 80
// buffer: src_counter uint32 = 6
// buffer: dst uint32[8]
// buffer: dst_counter uint32 = 1
// buffer: total uint32[1]
// expect: src_counter = 2
// expect: dst_counter = 5
// expect: total = 180
ConsumeStructuredBuffer<uint> src;
AppendStructuredBuffer<uint> dst;
RWStructuredBuffer<uint> total;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    // the four consumed values are src[2..5] in some thread order, appended at dst[1..4]
    uint v = src.Consume();
    dst.Append(v);
    InterlockedAdd(total[0], v);
}
