// conformance: an undeclared identifier is an error at its use
// error: undeclared identifier 'colour'
RWStructuredBuffer<float> o;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = colour;
}
