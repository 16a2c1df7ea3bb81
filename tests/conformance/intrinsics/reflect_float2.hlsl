// conformance: reflect on float2, including a unit normal that is not axis aligned
// buffer: i float32 = 0.5 -2.0 3.0 4.0 -1.5 0.25
// buffer: n float32 = 0.0 1.0 0.6 0.8 1.0 0.0
// buffer: o float32[6]
// expect: o = 0.5 2.0 -3.0 -4.0 1.5 0.25
StructuredBuffer<float2> i;
StructuredBuffer<float2> n;
RWStructuredBuffer<float2> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = reflect(i[id.x], n[id.x]);
}
