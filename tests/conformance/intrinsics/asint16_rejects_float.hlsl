// conformance: asint16 takes 16-bit types only: a float argument is an error
// error: needs a 16-bit int16_t, uint16_t or half type, not float
RWStructuredBuffer<int16_t> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[0] = asint16(1.5f);
}
