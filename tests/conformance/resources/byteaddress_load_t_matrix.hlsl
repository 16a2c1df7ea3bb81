// conformance: Load<float2x2> reads a column_major matrix (memory holds columns): m[0][1] is the third float
// buffer: raw float32 = 1 2 3 4 0 0
// expect: raw = 1 2 3 4 3 2
RWByteAddressBuffer raw;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float2x2 m = raw.Load<float2x2>(0);
    raw.Store<float>(16, m[0][1]);
    raw.Store<float>(20, m[1][0]);
}
