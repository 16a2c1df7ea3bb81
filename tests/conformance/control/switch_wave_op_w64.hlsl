// conformance: a wave operation inside a switch case counts only the lanes in that case (wave64)
// wave: 64
// buffer: o uint32[64]
// expect: o = 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116 7 16 7 116
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint r = 0;
    switch (gi % 4) {
    case 1: r = WaveActiveCountBits(true); break;
    case 3: r = 100 + WaveActiveCountBits(true); break;
    default: r = 7; break;
    }
    o[gi] = r;
}
