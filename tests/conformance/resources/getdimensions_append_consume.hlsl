// conformance: GetDimensions of Append/ConsumeStructuredBuffer: the element count and stride of the bound buffer
// buffer: app float32[12]
// buffer: con uint32 = 1 2 3 4 5
// buffer: o uint32[4]
// expect: o = 4 12 5 4
AppendStructuredBuffer<float3> app;
ConsumeStructuredBuffer<uint> con;
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    app.GetDimensions(o[0], o[1]);
    con.GetDimensions(o[2], o[3]);
}
