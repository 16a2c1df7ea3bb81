//==============================================================================================
// spd.hlsl -- mip chain generation with the single pass downsampler (stdlib/ffx_spd.h)
//
// An integration the way a renderer writes one: pick the portability target, declare the
// resources and groupshared storage, define SPD's hooks, include ffx_spd.h, call it.
// Every output pixel is the average of a 2x2 block of the mip above it.
//
// Dispatch: ((width + 63) / 64, (height + 63) / 64, slices) groups of 256 threads, where
// width x height is mip 0 of imgSrc.
//
// Bindings:
//   b0   spdConstants
//          mips            mips to build below mip 0, 1..12 (e.g. floor(log2(max(w, h))))
//          numWorkGroups   groups per slice: ((w + 63) / 64) * ((h + 63) / 64)
//          workGroupOffset added to SV_GroupID.xy; (0, 0) for a whole-texture dispatch
//          invInputSize    1 / (w, h); only with SPD_LINEAR_SAMPLER
//   t0   imgSrc            Texture2DArray<float4>, mip 0 is the source
//   u1   spdGlobalAtomic   one uint per slice; zero it once when you create it: the last
//                          group of each dispatch sets it back to 0
//   u2   imgDst[12]        imgDst[i] is mip i + 1; imgDst[5] is never written (mip 6 goes
//                          through u14), bind mip 6 there too or leave it null
//   u14  imgDst6           mip 6 again, globallycoherent: the last group reads it back
//   s0   srcSampler        only with SPD_LINEAR_SAMPLER: bilinear, clamp addressing
//
// Defines: A_HALF (16-bit path, SpdDownsampleH), SPD_LINEAR_SAMPLER,
// SPD_NO_WAVE_OPERATIONS; see ffx_spd.h.
//
// Border behaviour (non-power-of-two and non-square sizes): source reads are clamped to
// the edge. The 4 loads per 2x2 block clamp their coordinate to (w - 1, h - 1) (sizes from
// GetDimensions); the SPD_LINEAR_SAMPLER path gets the same result from the sampler's
// clamp addressing. Reads of mip 6 by the last group clamp the same way to mip 6's size.
// So, with the sizes of D3D's chain (mip k is max(1, w >> k) x max(1, h >> k)):
//   - mips 1..6: mip k pixel (X, Y) is the mean of the 2^k x 2^k source block at
//     (X << k, Y << k), the source taken as padded out to a multiple of 64 by repeating
//     its last column and row (numpy.pad(..., mode="edge"));
//   - mips 7..12: the same rule with mip 6 as stored (max(1, w >> 6) x max(1, h >> 6))
//     as the source and k - 6 in place of k.
// For power-of-two sizes that is the exact box filter. With odd sizes the last column or
// row of a mip is left out of the next one (floor sizes), and once a dimension has shrunk
// to 1 within a pass its replicated edge keeps counting in later mips of that pass.
// Stores outside a mip are dropped, as D3D12 drops out-of-bounds UAV writes.
//==============================================================================================

#define A_GPU 1
#define A_HLSL 1
#include "ffx_a.h"

#if defined(A_HALF) && !defined(SPD_PACKED_ONLY)
 // This integration's 16-bit build uses only the packed path (one set of hooks).
 #define SPD_PACKED_ONLY
#endif

cbuffer spdConstants : register(b0)
{
    uint mips;
    uint numWorkGroups;
    uint2 workGroupOffset;
#if defined(SPD_LINEAR_SAMPLER)
    float2 invInputSize;
#endif
};

Texture2DArray<float4> imgSrc : register(t0);
globallycoherent RWStructuredBuffer<uint> spdGlobalAtomic : register(u1);
RWTexture2DArray<float4> imgDst[12] : register(u2);
globallycoherent RWTexture2DArray<float4> imgDst6 : register(u14);
#if defined(SPD_LINEAR_SAMPLER)
SamplerState srcSampler : register(s0);
#endif

// The group's view of the global counter (written by SpdIncreaseAtomicCounter).
groupshared AU1 spdCounter;

// 16x16 scratch between mips, one array per channel pair or channel: separate arrays keep
// neighbouring lanes on different LDS banks.
#if defined(A_HALF)
groupshared AH2 spdIntermediateRG[16][16];
groupshared AH2 spdIntermediateBA[16][16];
#else
groupshared AF1 spdIntermediateR[16][16];
groupshared AF1 spdIntermediateG[16][16];
groupshared AF1 spdIntermediateB[16][16];
groupshared AF1 spdIntermediateA[16][16];
#endif

//----------------------------------------------------------------------------------------------
// Clamped addressing shared by both paths.
//----------------------------------------------------------------------------------------------
uint3 SourceTexel(ASU2 p, AU1 slice)
{
    uint width, height, layers;
    imgSrc.GetDimensions(width, height, layers);
    uint2 q = min(uint2(p), uint2(width - 1u, height - 1u));
    return uint3(q, slice);
}

uint3 Mip6Texel(ASU2 p, AU1 slice)
{
    uint width, height, layers;
    imgDst6.GetDimensions(width, height, layers);
    uint2 q = min(uint2(p), uint2(width - 1u, height - 1u));
    return uint3(q, slice);
}

#if defined(SPD_LINEAR_SAMPLER)
// The shared corner of texels p .. p + 1: a bilinear fetch there averages the 2x2 block.
float3 SourceBlockCentre(ASU2 p, AU1 slice)
{
    float2 uv = (float2(p) + 1.0) * invInputSize;
    return float3(uv, slice);
}
#endif

//----------------------------------------------------------------------------------------------
// Hooks used by both paths.
//----------------------------------------------------------------------------------------------
void SpdIncreaseAtomicCounter(AU1 slice)
{
    AU1 before;
    InterlockedAdd(spdGlobalAtomic[slice], 1u, before);
    spdCounter = before;
}

AU1 SpdGetAtomicCounter()
{
    return spdCounter;
}

void SpdResetAtomicCounter(AU1 slice)
{
    spdGlobalAtomic[slice] = 0u;
}

#if !defined(A_HALF)
//----------------------------------------------------------------------------------------------
// 32-bit hooks.
//----------------------------------------------------------------------------------------------
AF4 SpdLoadSourceImage(ASU2 p, AU1 slice)
{
#if defined(SPD_LINEAR_SAMPLER)
    return imgSrc.SampleLevel(srcSampler, SourceBlockCentre(p, slice), 0);
#else
    return imgSrc[SourceTexel(p, slice)];
#endif
}

AF4 SpdLoad(ASU2 p, AU1 slice)
{
    return imgDst6[Mip6Texel(p, slice)];
}

void SpdStore(ASU2 p, AF4 value, AU1 mip, AU1 slice)
{
    if (mip == 5u)
        imgDst6[uint3(p, slice)] = value;
    else
        imgDst[mip][uint3(p, slice)] = value;
}

AF4 SpdLoadIntermediate(AU1 x, AU1 y)
{
    return AF4(spdIntermediateR[y][x], spdIntermediateG[y][x],
               spdIntermediateB[y][x], spdIntermediateA[y][x]);
}

void SpdStoreIntermediate(AU1 x, AU1 y, AF4 value)
{
    spdIntermediateR[y][x] = value.r;
    spdIntermediateG[y][x] = value.g;
    spdIntermediateB[y][x] = value.b;
    spdIntermediateA[y][x] = value.a;
}

AF4 SpdReduce4(AF4 v0, AF4 v1, AF4 v2, AF4 v3)
{
    return (v0 + v1 + v2 + v3) * 0.25;
}

#else
//----------------------------------------------------------------------------------------------
// 16-bit hooks: the textures stay float4, the arithmetic and the scratch are 16-bit.
//----------------------------------------------------------------------------------------------
AH4 SpdLoadSourceImageH(ASU2 p, AU1 slice)
{
#if defined(SPD_LINEAR_SAMPLER)
    return AH4(imgSrc.SampleLevel(srcSampler, SourceBlockCentre(p, slice), 0));
#else
    return AH4(imgSrc[SourceTexel(p, slice)]);
#endif
}

AH4 SpdLoadH(ASU2 p, AU1 slice)
{
    return AH4(imgDst6[Mip6Texel(p, slice)]);
}

void SpdStoreH(ASU2 p, AH4 value, AU1 mip, AU1 slice)
{
    if (mip == 5u)
        imgDst6[uint3(p, slice)] = AF4(value);
    else
        imgDst[mip][uint3(p, slice)] = AF4(value);
}

AH4 SpdLoadIntermediateH(AU1 x, AU1 y)
{
    return AH4(spdIntermediateRG[y][x], spdIntermediateBA[y][x]);
}

void SpdStoreIntermediateH(AU1 x, AU1 y, AH4 value)
{
    spdIntermediateRG[y][x] = value.rg;
    spdIntermediateBA[y][x] = value.ba;
}

AH4 SpdReduce4H(AH4 v0, AH4 v1, AH4 v2, AH4 v3)
{
    return (v0 + v1 + v2 + v3) * AH1_(0.25);
}
#endif

#include "ffx_spd.h"

[numthreads(256, 1, 1)]
void main(uint3 WorkGroupId : SV_GroupID, uint LocalThreadIndex : SV_GroupIndex)
{
#if defined(A_HALF)
    SpdDownsampleH(WorkGroupId.xy, LocalThreadIndex, mips, numWorkGroups, WorkGroupId.z,
                   workGroupOffset);
#else
    SpdDownsample(WorkGroupId.xy, LocalThreadIndex, mips, numWorkGroups, WorkGroupId.z,
                  workGroupOffset);
#endif
}
