// conformance: a missing semicolon is a positioned syntax error
// error: expected ';'
RWStructuredBuffer<float> o;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[0] = 1.0f
}
