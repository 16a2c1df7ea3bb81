// conformance: IncrementCounter is a method of RWStructuredBuffer only, not of a byte-address buffer
// error: 'IncrementCounter' is not a method of RWByteAddressBuffer
RWByteAddressBuffer raw;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    raw.Store(0, raw.IncrementCounter());
}
