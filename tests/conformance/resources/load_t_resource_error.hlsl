// conformance: Load<T> takes a numeric scalar, vector, matrix or struct: a texture type is rejected at the argument
// error: the template argument must be a scalar, vector, matrix or struct of numbers
ByteAddressBuffer raw;
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[0] = raw.Load<Texture2D>(0);
}
