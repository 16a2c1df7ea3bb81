// conformance: Store<T> does not exist on a read-only ByteAddressBuffer
// error: 'Store' is not a method of ByteAddressBuffer
ByteAddressBuffer raw;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    raw.Store<float>(0, 1.0);
}
