// conformance: InterlockedAdd64 needs a RWByteAddressBuffer
// error: 'InterlockedAdd64' is not a method of ByteAddressBuffer
ByteAddressBuffer raw;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    raw.InterlockedAdd64(0, 1ull);
}
