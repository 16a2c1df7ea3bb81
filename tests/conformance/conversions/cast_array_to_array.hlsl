// conformance: an array cast to an array of another element type and fewer elements
// buffer: o float16[3]
// expect: o = -1.0 2.0 65504.0
RWStructuredBuffer<half> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    typedef half H3[3];
    int a[4] = {-1, 2, 65504, 5};
    H3 h = (H3)a;
    o[0] = h[0]; o[1] = h[1]; o[2] = h[2];
}
