//==============================================================================================
// occupancy_heavy.hlsl -- a 16-tap sharpen written to keep many registers live
//
// Pair with occupancy_light.hlsl: the same kernel with the same results, written the other
// way. Compare their register reports.
//
// The filter: for element i, blur 16 neighbours (i - 8 .. i + 7, clamped to the buffer)
// with binomial weights, push the centre away from the blur (an unsharp mask), then clamp
// the result to the min..max of the 16 taps so the sharpening cannot ring.
//
// Why this version is heavy: all 16 loads are hoisted into a local array first (constant
// indices after unrolling, so the array lives in VGPRs), and the array is then walked
// twice -- once for the blur, once for the min/max. In source order every tap stays live
// until the last min/max, so at the peak 16 float4 values (64 VGPRs) sit in registers next
// to the accumulators. Fewer registers per wave means more waves per SIMD (1024 VGPRs per
// SIMD in wave32, 512 in wave64), so shc's schedule pass reorders such a kernel when that
// buys a wave: in wave32 it interleaves the blur and the min/max with the loads until 16
// waves fit; in wave64 it reaches 7 waves, not the 16 of occupancy_light.hlsl, which holds
// one tap at a time. Compare `shc regs` on the two.
//
// Dispatch: ((count + 63) / 64, 1, 1).
// Bindings:
//   b0  filterConstants  count: elements; sharpness: 0 = plain clamp of the centre
//   t0  input            StructuredBuffer<float4>, count elements
//   u0  output           RWStructuredBuffer<float4>, count elements
//==============================================================================================

#define TAPS 16
#define FIRST_TAP (-8)

cbuffer filterConstants : register(b0)
{
    uint count;
    float sharpness;
};

StructuredBuffer<float4> input : register(t0);
RWStructuredBuffer<float4> output : register(u0);

// Binomial weights C(15, k) / 2^15: they sum to exactly 1.
static const float kWeights[TAPS] =
{
    1.0 / 32768.0,    15.0 / 32768.0,   105.0 / 32768.0,  455.0 / 32768.0,
    1365.0 / 32768.0, 3003.0 / 32768.0, 5005.0 / 32768.0, 6435.0 / 32768.0,
    6435.0 / 32768.0, 5005.0 / 32768.0, 3003.0 / 32768.0, 1365.0 / 32768.0,
    455.0 / 32768.0,  105.0 / 32768.0,  15.0 / 32768.0,   1.0 / 32768.0
};

float4 LoadClamped(int index)
{
    return input[clamp(index, 0, int(count) - 1)];
}

[numthreads(64, 1, 1)]
void main(uint3 dispatchId : SV_DispatchThreadID)
{
    int i = int(dispatchId.x);
    if (i >= int(count))
        return;

    // All taps first...
    float4 taps[TAPS];
    [unroll]
    for (int k = 0; k < TAPS; ++k)
    {
        taps[k] = LoadClamped(i + FIRST_TAP + k);
    }

    // ...then the blur over the whole array...
    float4 blurred = float4(0.0, 0.0, 0.0, 0.0);
    [unroll]
    for (int b = 0; b < TAPS; ++b)
    {
        blurred += kWeights[b] * taps[b];
    }

    // ...then the neighbourhood range, which keeps every tap alive until here.
    float4 lo = taps[0];
    float4 hi = taps[0];
    [unroll]
    for (int r = 1; r < TAPS; ++r)
    {
        lo = min(lo, taps[r]);
        hi = max(hi, taps[r]);
    }

    float4 centre = taps[-FIRST_TAP];
    float4 sharpened = centre + sharpness * (centre - blurred);
    output[i] = clamp(sharpened, lo, hi);
}
