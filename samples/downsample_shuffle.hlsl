//==============================================================================================
// downsample_shuffle.hlsl -- mip 1 and mip 2 of a texture, both through lane shuffles
//
// One of three kernels that compute exactly the same two mips and differ only in how the
// threads share values:
//   downsample_quad.hlsl     QuadReadAcrossX/Y/Diagonal (DPP quad_perm on RDNA, no LDS)
//   downsample_shuffle.hlsl  WaveShuffleXor: lane masks 1, 2 and 16, 32 (needs wave64)
//   downsample_lds.hlsl      groupshared memory and a barrier
// Compare their listings and register reports; the outputs are bit-identical.
//
// WaveShuffleXor(v, m) is an shc extension: the value of v in lane WaveGetLaneIndex() ^ m.
// This kernel uses both kinds of distance on purpose:
//   - masks 1 and 2 swap inside a quad: DPP quad_perm, as cheap as QuadReadAcross*;
//   - mask 16 crosses the two 16-lane rows of a 32-lane half: v_permlanex16_b32;
//   - mask 32 crosses the two halves of a wave64: no DPP form at all (readlane or an LDS
//     round trip), and no such lane exists in wave32 -- hence [WaveSize(64)].
// That cost is why SPD puts 2x2 neighbours in the same quad (see downsample_quad.hlsl).
//
// Work split: a group of 64 threads (one wave64) owns a 16x16 source tile, split in four
// 8x8 quadrants. Each thread loads one texel of every quadrant (4 loads, like the other
// variants). Lane bits, for the texel the lane holds in each quadrant:
//     bit 0, 1 : x, y inside the 2x2 source block        -> xor 1, 2  build mip 1
//     bit 2, 3 : x, y of the mip-2 pixel in the quadrant
//     bit 4, 5 : x, y of the mip-1 pixel inside its 2x2  -> xor 16, 32 build mip 2
// After each step every lane of the exchange holds all four quadrants' results, so lane
// k of the group of partners stores quadrant k: all 64 lanes store mip 1 (8x8), 16 lanes
// store mip 2 (4x4).
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

float4 LoadSourceClamped(uint2 p)
{
    uint width, height;
    src.GetDimensions(width, height);
    return src[min(p, uint2(width - 1, height - 1))];
}

// Sum over the lanes lane, lane ^ m1, lane ^ m2, lane ^ (m1 | m2) as
// (first + its m1 partner) + (the same pair one m2 step away): the same association as
// the other two variants, in every lane of the four.
float4 ReduceAcrossLanes(float4 v, uint m1, uint m2)
{
    float4 pair = v + WaveShuffleXor(v, m1);
    return (pair + WaveShuffleXor(pair, m2)) * 0.25;
}

// Quadrant k's value out of four (k = 0..3).
float4 PickQuadrant(uint k, float4 q0, float4 q1, float4 q2, float4 q3)
{
    return k == 0 ? q0 : (k == 1 ? q1 : (k == 2 ? q2 : q3));
}

[WaveSize(64)]
[numthreads(64, 1, 1)]
void main(uint3 groupId : SV_GroupID, uint groupIndex : SV_GroupIndex)
{
    uint lane = groupIndex;                     // one wave64 per group
    uint2 inBlock = uint2(lane & 1, (lane >> 1) & 1);
    uint2 mip2InQuadrant = uint2((lane >> 2) & 1, (lane >> 3) & 1);
    uint2 mip1InBlock = uint2((lane >> 4) & 1, (lane >> 5) & 1);

    // Texel inside quadrant 0 of the tile; quadrant q adds (8 * (q & 1), 8 * (q >> 1)).
    uint2 texel = groupId.xy * 16 + inBlock + mip1InBlock * 2 + mip2InQuadrant * 4;
    float4 t0 = LoadSourceClamped(texel);
    float4 t1 = LoadSourceClamped(texel + uint2(8, 0));
    float4 t2 = LoadSourceClamped(texel + uint2(0, 8));
    float4 t3 = LoadSourceClamped(texel + uint2(8, 8));

    // Mip 1: partners at xor 1 (right) and xor 2 (below).
    float4 m0 = ReduceAcrossLanes(t0, 1, 2);
    float4 m1 = ReduceAcrossLanes(t1, 1, 2);
    float4 m2 = ReduceAcrossLanes(t2, 1, 2);
    float4 m3 = ReduceAcrossLanes(t3, 1, 2);

    uint k = lane & 3;                          // which quadrant this lane stores
    uint2 quadrant = uint2(k & 1, k >> 1);
    uint2 pixel1 = groupId.xy * 8 + quadrant * 4 + mip2InQuadrant * 2 + mip1InBlock;
    mip1[pixel1] = PickQuadrant(k, m0, m1, m2, m3);

    // Mip 2: partners at xor 16 (right) and xor 32 (below).
    float4 n0 = ReduceAcrossLanes(m0, 16, 32);
    float4 n1 = ReduceAcrossLanes(m1, 16, 32);
    float4 n2 = ReduceAcrossLanes(m2, 16, 32);
    float4 n3 = ReduceAcrossLanes(m3, 16, 32);

    if ((lane >> 4) == 0)
    {
        uint2 pixel2 = groupId.xy * 4 + quadrant * 2 + mip2InQuadrant;
        mip2[pixel2] = PickQuadrant(k, n0, n1, n2, n3);
    }
}
