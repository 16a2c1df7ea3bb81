// conformance: [WaveSize] other than 32 or 64 is rejected
// error: WaveSize
RWStructuredBuffer<uint> o;
[WaveSize(16)]
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = 1;
}
