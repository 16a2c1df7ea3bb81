// Golden: the entry-point rules.
groupshared float4 tile[2048];
groupshared uint overflow;

uint Depth(uint n)
{
    return n == 0 ? 0 : 1 + Depth(n - 1);
}

[numthreads(32, 32, 2)]
[WaveSize(16)]
void main(uint3 id : SV_DispatchThreadID, float4 position : SV_Position)
{
    tile[id.x] = Depth(id.x);
    discard;
}
