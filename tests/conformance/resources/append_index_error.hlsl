// conformance: an AppendStructuredBuffer has no [] operator (only Append)
// error: has no [] operator; use Append
AppendStructuredBuffer<uint> app;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    app[0] = 1;
}
