//==============================================================================================
// texture_array_nonuniform.hlsl -- sampling a bindless texture array with a per-thread index
//
// Each thread looks up a material id and a uv in structured buffers and samples that
// material's texture out of an unbounded array. On RDNA the texture descriptor an image
// instruction uses lives in scalar registers, i.e. one descriptor per wave. When lanes of
// a wave may want different textures the index must be marked NonUniformResourceIndex:
// the compiler then emits a waterfall loop -- v_readfirstlane_b32 picks one lane's index,
// v_cmp_eq + s_and_saveexec_b32 select every lane with the same index, those lanes sample,
// drop out of exec, and the loop repeats until no lane is left. The cost grows with the
// number of distinct ids in a wave, so sorting work by material keeps it low.
// Without the marker the index is taken as wave-uniform and the result is undefined (on
// RDNA the whole wave would, in practice, sample one lane's texture).
//
// The detail texture, indexed from the constant buffer, is uniform: no loop for it.
//
// Dispatch: ((count + 63) / 64, 1, 1).
// Bindings:
//   b0              sampleConstants  count: requests; detailIndex: texture multiplied in
//   t0              materialIds      StructuredBuffer<uint>, one texture index per request
//   t1              uvs              StructuredBuffer<float2>, one uv per request
//   t0, space1      textures[]       unbounded array of Texture2D<float4>
//   s0              linearSampler    any filter/addressing; mip 0 is sampled
//   u0              colors           RWStructuredBuffer<float4>, one result per request
//==============================================================================================

cbuffer sampleConstants : register(b0)
{
    uint count;
    uint detailIndex;
};

StructuredBuffer<uint> materialIds : register(t0);
StructuredBuffer<float2> uvs : register(t1);
Texture2D<float4> textures[] : register(t0, space1);
SamplerState linearSampler : register(s0);
RWStructuredBuffer<float4> colors : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 dispatchId : SV_DispatchThreadID)
{
    uint i = dispatchId.x;
    if (i >= count)
        return;

    uint materialId = materialIds[i];
    float2 uv = uvs[i];

    // Divergent index: waterfall loop around the sample.
    float4 albedo = textures[NonUniformResourceIndex(materialId)].SampleLevel(linearSampler, uv, 0);
    // Uniform index: a single sample instruction with the descriptor in SGPRs.
    float4 detail = textures[detailIndex].SampleLevel(linearSampler, uv, 0);

    colors[i] = albedo * detail;
}
