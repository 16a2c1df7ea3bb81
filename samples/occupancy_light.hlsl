//==============================================================================================
// occupancy_light.hlsl -- the 16-tap sharpen of occupancy_heavy.hlsl, register-frugal
//
// Same bindings, dispatch and results as occupancy_heavy.hlsl (the blur adds the taps in
// the same order, so the outputs match to the bit). The difference is only in how long
// values live: each tap is loaded, folded into the blur and the min/max, and dropped, so
// besides the loop state only the accumulators (blur, lo, hi, centre) and one tap are
// live. The register report should show a fraction of the heavy version's VGPRs and the
// full 16 waves per SIMD.
//
// (An optimizing scheduler may still move some loads ahead of their use to hide latency,
// trading registers back for latency on its own; what the source asks for is the point.)
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

    float4 centre = LoadClamped(i);
    float4 blurred = float4(0.0, 0.0, 0.0, 0.0);
    float4 lo = centre;                         // the centre is one of the taps
    float4 hi = centre;

    // One tap at a time: load, fold in, forget. Unrolled like the heavy version (constant
    // weight indices), but each load sits right next to its only uses.
    [unroll]
    for (int k = 0; k < TAPS; ++k)
    {
        float4 tap = LoadClamped(i + FIRST_TAP + k);
        blurred += kWeights[k] * tap;
        lo = min(lo, tap);
        hi = max(hi, tap);
    }

    float4 sharpened = centre + sharpness * (centre - blurred);
    output[i] = clamp(sharpened, lo, hi);
}
