// conformance: asfloat of a ByteAddressBuffer load reads a float's bits
// buffer: raw uint32 = 1069547520 3225419776 1048576000
// buffer: raw2 uint32[3]
// expect: raw2 = 1077936128 3233808384 1056964608
ByteAddressBuffer raw;
RWByteAddressBuffer raw2;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float f = asfloat(raw.Load(id.x * 4));
    raw2.Store(id.x * 4, asuint(f * 2.0f));
}
