//==============================================================================================
// downsample_quad.hlsl -- mip 1 and mip 2 of a texture, mip 2 through quad wave operations
//
// One of three kernels that compute exactly the same two mips and differ only in how the
// threads share mip-1 values to build mip 2:
//   downsample_quad.hlsl     QuadReadAcrossX/Y/Diagonal (DPP quad_perm on RDNA, no LDS)
//   downsample_shuffle.hlsl  WaveShuffleXor: lane masks 1, 2 and 16, 32 (needs wave64)
//   downsample_lds.hlsl      groupshared memory and a barrier
// Compare their listings and register reports; the outputs are bit-identical.
//
// Work split: a group of 64 threads owns a 16x16 source tile. Each thread averages one
// 2x2 source block into one mip-1 pixel (8x8 per group); each 2x2 of mip-1 pixels becomes
// one mip-2 pixel (4x4 per group). Sums are formed as (top-left + top-right) +
// (bottom-left + bottom-right) in every variant, so the results match to the bit.
//
// Here the thread -> pixel map is ARmpRed8x8 (ffx_a.h): lanes 4k..4k+3 sit on a 2x2 of
// mip-1 pixels in reading order, so a quad holds exactly the inputs of one mip-2 pixel.
//
// Dispatch: ((width + 15) / 16, (height + 15) / 16, 1), width x height = source size.
// Bindings:
//   t0  src   Texture2D<float4>, mip 0
//   u0  mip1  RWTexture2D<float4>, max(1, width / 2) x max(1, height / 2)
//   u1  mip2  RWTexture2D<float4>, max(1, width / 4) x max(1, height / 4)
// Borders: source reads are clamped to the last column/row (as in spd.hlsl); stores
// outside a mip are dropped.
//==============================================================================================

#define A_GPU 1
#define A_HLSL 1
#include "ffx_a.h"

Texture2D<float4> src : register(t0);
RWTexture2D<float4> mip1 : register(u0);
RWTexture2D<float4> mip2 : register(u1);

float4 LoadSourceClamped(uint2 p)
{
    uint width, height;
    src.GetDimensions(width, height);
    return src[min(p, uint2(width - 1, height - 1))];
}

// Average of the 2x2 source block whose top-left texel is p.
float4 AverageSourceBlock(uint2 p)
{
    float4 top = LoadSourceClamped(p) + LoadSourceClamped(p + uint2(1, 0));
    float4 bottom = LoadSourceClamped(p + uint2(0, 1)) + LoadSourceClamped(p + uint2(1, 1));
    return (top + bottom) * 0.25;
}

[numthreads(64, 1, 1)]
void main(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    uint2 local = ARmpRed8x8(groupIndex);       // mip-1 pixel inside the group's 8x8 block
    uint2 pixel1 = groupId.xy * 8 + local;

    float4 v = AverageSourceBlock(pixel1 * 2);
    mip1[pixel1] = v;

    // In the quad's top-left lane: v is top-left, AcrossX top-right, AcrossY bottom-left,
    // Diagonal bottom-right. Every lane of the quad computes a sum; only one stores it.
    float4 top = v + QuadReadAcrossX(v);
    float4 bottom = QuadReadAcrossY(v) + QuadReadAcrossDiagonal(v);
    if ((groupIndex & 3) == 0)
    {
        mip2[pixel1 / 2] = (top + bottom) * 0.25;
    }
}
