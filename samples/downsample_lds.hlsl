//==============================================================================================
// downsample_lds.hlsl -- mip 1 and mip 2 of a texture, mip 2 through groupshared memory
//
// One of three kernels that compute exactly the same two mips and differ only in how the
// threads share mip-1 values to build mip 2:
//   downsample_quad.hlsl     QuadReadAcrossX/Y/Diagonal (DPP quad_perm on RDNA, no LDS)
//   downsample_shuffle.hlsl  WaveShuffleXor: lane masks 1, 2 and 16, 32 (needs wave64)
//   downsample_lds.hlsl      groupshared memory and a barrier
// Compare their listings and register reports; the outputs are bit-identical.
//
// Work split: a group of 64 threads owns a 16x16 source tile. Each thread averages one
// 2x2 source block into one mip-1 pixel (8x8 per group) and parks it in groupshared
// memory; after the barrier 16 threads each read a 2x2 of mip-1 pixels and write one
// mip-2 pixel (4x4 per group). No wave operations, so the thread -> pixel map can be
// plain row-major and the kernel runs the same at any wave size; the price is an LDS
// round trip, a barrier and 48 idle threads in the second step.
//
// Dispatch: ((width + 15) / 16, (height + 15) / 16, 1), width x height = source size.
// Bindings:
//   t0  src   Texture2D<float4>, mip 0
//   u0  mip1  RWTexture2D<float4>, max(1, width / 2) x max(1, height / 2)
//   u1  mip2  RWTexture2D<float4>, max(1, width / 4) x max(1, height / 4)
// Borders: source reads are clamped to the last column/row (as in spd.hlsl); stores
// outside a mip are dropped.
//==============================================================================================

Texture2D<float4> src : register(t0);
RWTexture2D<float4> mip1 : register(u0);
RWTexture2D<float4> mip2 : register(u1);

groupshared float4 mip1Tile[8][8];             // [y][x], the group's mip-1 block

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
    uint2 local = uint2(groupIndex % 8, groupIndex / 8);
    uint2 pixel1 = groupId.xy * 8 + local;

    float4 v = AverageSourceBlock(pixel1 * 2);
    mip1[pixel1] = v;
    mip1Tile[local.y][local.x] = v;

    GroupMemoryBarrierWithGroupSync();          // every thread of the group gets here

    if (groupIndex < 16)
    {
        uint2 local2 = uint2(groupIndex % 4, groupIndex / 4);
        uint2 cell = local2 * 2;
        float4 top = mip1Tile[cell.y][cell.x] + mip1Tile[cell.y][cell.x + 1];
        float4 bottom = mip1Tile[cell.y + 1][cell.x] + mip1Tile[cell.y + 1][cell.x + 1];
        mip2[groupId.xy * 4 + local2] = (top + bottom) * 0.25;
    }
}
