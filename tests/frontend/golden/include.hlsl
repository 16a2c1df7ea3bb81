// Golden: errors inside an #include'd header and inside macro expansions.
#include "header.h"

#define LOAD(i) input[i]
#define STORE(i, v) output[i] = v

StructuredBuffer<float3> input : register(t0);
RWStructuredBuffer<float3> output : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float3 c = Brighten(LOAD(id.xy));
    STORE(id.x, TWICE(c.w));
    LOAD(id.x) = c * SCALE;
}
