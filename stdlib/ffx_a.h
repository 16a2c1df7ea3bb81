//==============================================================================================
// ffx_a.h -- shc portability header for FidelityFX-style compute shaders
//
// Integrations pick the target before including this file, then write their code in the
// A* types so that one source serves 32-bit and packed 16-bit builds:
//
//     #define A_GPU 1
//     #define A_HLSL 1
//     #define A_HALF          // optional: the 16-bit types AH* and AW*
//     #include "ffx_a.h"
//
// Only the HLSL path exists in shc (compute shaders, DXC's cs_6_x rules with
// -enable-16bit-types). The file name and the type names match what FidelityFX
// integrations include, so their hook code compiles unchanged; the contents are shc's own.
//
// Naming:  A + kind + component count.
//          P bool, F float, U uint, SU int, H 16-bit float, W 16-bit uint, SW 16-bit int.
//          A trailing underscore builds a value of that type from one scalar:
//          AF3_(0.5) is AF3(0.5, 0.5, 0.5) and AU1_(7) is 7u.
//          X_Y(v) reinterprets or repacks a Y as an X: AU1_AF1(1.0) == 0x3f800000u.
//==============================================================================================
#ifndef A_PORTABILITY_HEADER
#define A_PORTABILITY_HEADER 1

#if defined(A_GPU) && defined(A_HLSL)

//----------------------------------------------------------------------------------------------
// Types. Macros rather than typedefs: the names must also work as constructors (AF2(x, y))
// and in casts ((AF2)x), exactly like the built-in type names they stand for.
//----------------------------------------------------------------------------------------------
#define AP1 bool
#define AP2 bool2
#define AP3 bool3
#define AP4 bool4

#define AF1 float
#define AF2 float2
#define AF3 float3
#define AF4 float4

#define AU1 uint
#define AU2 uint2
#define AU3 uint3
#define AU4 uint4

#define ASU1 int
#define ASU2 int2
#define ASU3 int3
#define ASU4 int4

#if defined(A_HALF)
 // min16float / min16uint rather than float16_t / uint16_t: they are real 16-bit types
 // under -enable-16bit-types and still compile (as relaxed precision) without it.
 #define AH1 min16float
 #define AH2 min16float2
 #define AH3 min16float3
 #define AH4 min16float4

 #define AW1 min16uint
 #define AW2 min16uint2
 #define AW3 min16uint3
 #define AW4 min16uint4

 #define ASW1 min16int
 #define ASW2 min16int2
 #define ASW3 min16int3
 #define ASW4 min16int4
#endif

//----------------------------------------------------------------------------------------------
// Value builders: a scalar converted to the type and, for vectors, copied to every component
// (HLSL's scalar-to-vector cast does the splat).
//----------------------------------------------------------------------------------------------
#define AF1_(a) ((AF1)(a))
#define AF2_(a) ((AF2)(a))
#define AF3_(a) ((AF3)(a))
#define AF4_(a) ((AF4)(a))

#define AU1_(a) ((AU1)(a))
#define AU2_(a) ((AU2)(a))
#define AU3_(a) ((AU3)(a))
#define AU4_(a) ((AU4)(a))

#define ASU1_(a) ((ASU1)(a))
#define ASU2_(a) ((ASU2)(a))
#define ASU3_(a) ((ASU3)(a))
#define ASU4_(a) ((ASU4)(a))

#if defined(A_HALF)
 #define AH1_(a) ((AH1)(a))
 #define AH2_(a) ((AH2)(a))
 #define AH3_(a) ((AH3)(a))
 #define AH4_(a) ((AH4)(a))

 #define AW1_(a) ((AW1)(a))
 #define AW2_(a) ((AW2)(a))
 #define AW3_(a) ((AW3)(a))
 #define AW4_(a) ((AW4)(a))
#endif

//----------------------------------------------------------------------------------------------
// Reinterpretation (same bits, other type).
//----------------------------------------------------------------------------------------------
#define AF1_AU1(a) asfloat(AU1(a))
#define AF2_AU2(a) asfloat(AU2(a))
#define AF3_AU3(a) asfloat(AU3(a))
#define AF4_AU4(a) asfloat(AU4(a))

#define AU1_AF1(a) asuint(AF1(a))
#define AU2_AF2(a) asuint(AF2(a))
#define AU3_AF3(a) asuint(AF3(a))
#define AU4_AF4(a) asuint(AF4(a))

// Two floats rounded to half precision and packed into one uint (x in the low 16 bits),
// and back. Useful to keep a 16-bit pair in a 32-bit buffer or groupshared word.
AU1 AU1_AH2_AF2(AF2 a)
{
    return f32tof16(a.x) | (f32tof16(a.y) << 16u);
}

AF2 AF2_AH2_AU1(AU1 a)
{
    return AF2(f16tof32(a & 0xffffu), f16tof32(a >> 16u));
}

//----------------------------------------------------------------------------------------------
// Constants.
//----------------------------------------------------------------------------------------------
#define A_INFP_F AF1_AU1(0x7f800000u)
#define A_INFN_F AF1_AU1(0xff800000u)
#define A_MAXU1 0xffffffffu

//----------------------------------------------------------------------------------------------
// Bit fields. `bits` counts bits and must be below 32.
//----------------------------------------------------------------------------------------------

// `bits` bits of `src`, starting at bit `off`, moved down to bit 0.
AU1 ABfe(AU1 src, AU1 off, AU1 bits)
{
    AU1 lowMask = (1u << bits) - 1u;
    return (src >> off) & lowMask;
}

// `src` with its lowest `bits` bits replaced by the lowest `bits` bits of `ins`.
AU1 ABfiM(AU1 src, AU1 ins, AU1 bits)
{
    AU1 lowMask = (1u << bits) - 1u;
    return (ins & lowMask) | (src & ~lowMask);
}

// `src` with `bits` bits starting at bit `off` replaced by the low bits of `ins`.
AU1 ABfi(AU1 src, AU1 ins, AU1 off, AU1 bits)
{
    AU1 fieldMask = ((1u << bits) - 1u) << off;
    return ((ins << off) & fieldMask) | (src & ~fieldMask);
}

//----------------------------------------------------------------------------------------------
// Three-operand min/max (one v_max3/v_min3 on AMD hardware) and saturate.
//----------------------------------------------------------------------------------------------
AF1 AMax3F1(AF1 x, AF1 y, AF1 z) { return max(x, max(y, z)); }
AF2 AMax3F2(AF2 x, AF2 y, AF2 z) { return max(x, max(y, z)); }
AF3 AMax3F3(AF3 x, AF3 y, AF3 z) { return max(x, max(y, z)); }
AF4 AMax3F4(AF4 x, AF4 y, AF4 z) { return max(x, max(y, z)); }

AF1 AMin3F1(AF1 x, AF1 y, AF1 z) { return min(x, min(y, z)); }
AF2 AMin3F2(AF2 x, AF2 y, AF2 z) { return min(x, min(y, z)); }
AF3 AMin3F3(AF3 x, AF3 y, AF3 z) { return min(x, min(y, z)); }
AF4 AMin3F4(AF4 x, AF4 y, AF4 z) { return min(x, min(y, z)); }

AU1 AMax3U1(AU1 x, AU1 y, AU1 z) { return max(x, max(y, z)); }
AU1 AMin3U1(AU1 x, AU1 y, AU1 z) { return min(x, min(y, z)); }

AF1 ASatF1(AF1 x) { return saturate(x); }
AF4 ASatF4(AF4 x) { return saturate(x); }

#if defined(A_HALF)
AH1 AMax3H1(AH1 x, AH1 y, AH1 z) { return max(x, max(y, z)); }
AH2 AMax3H2(AH2 x, AH2 y, AH2 z) { return max(x, max(y, z)); }
AH4 AMax3H4(AH4 x, AH4 y, AH4 z) { return max(x, max(y, z)); }

AH1 AMin3H1(AH1 x, AH1 y, AH1 z) { return min(x, min(y, z)); }
AH2 AMin3H2(AH2 x, AH2 y, AH2 z) { return min(x, min(y, z)); }
AH4 AMin3H4(AH4 x, AH4 y, AH4 z) { return min(x, min(y, z)); }
#endif

//----------------------------------------------------------------------------------------------
// ARmpRed8x8: the "Morton-like" remap of a 64-thread block onto an 8x8 pixel block.
//
// A 1-D thread group walks pixels row by row if you use x = i % 8, y = i / 8; then lanes
// 0..3 sit on one row and quad operations see a 4x1 strip. This remap gives a 2x2 quad
// to every 4 consecutive lanes instead, with the lanes of a quad in reading order
// (lane 4k: top-left, 4k+1: top-right, 4k+2: bottom-left, 4k+3: bottom-right), so that
// QuadReadAcrossX swaps horizontal neighbours and QuadReadAcrossY vertical ones. It also
// keeps the texels a wave fetches together close together in a tiled texture.
//
// With a = a5 a4 a3 a2 a1 a0 (bits 6 and up are ignored):
//
//     x = a4 a3 a0        y = a5 a2 a1
//
//   - a0, a1 pick the pixel inside a 2x2 quad     -> lanes 4k..4k+3   cover 2x2
//   - a2, a3 pick the quad inside a 4x4 block     -> lanes 16k..16k+15 cover 4x4
//     (a2 steps down first, a3 steps right)
//   - a4, a5 pick the 4x4 block inside the 8x8    -> lanes 0..63      cover 8x8
//
//          x=0  1   2   3   4   5   6   7
//     y=0    0   1   8   9  16  17  24  25
//     y=1    2   3  10  11  18  19  26  27
//     y=2    4   5  12  13  20  21  28  29
//     y=3    6   7  14  15  22  23  30  31
//     y=4   32  33  40  41  48  49  56  57
//     ...   (rows 4..7 repeat rows 0..3 with 32 added)
//----------------------------------------------------------------------------------------------
AU2 ARmpRed8x8(AU1 a)
{
    AU1 x = (a & 1u)                  // a0 -> x bit 0
          | ((a >> 2u) & 6u);         // a3, a4 -> x bits 1, 2
    AU1 y = ((a >> 1u) & 3u)          // a1, a2 -> y bits 0, 1
          | ((a >> 3u) & 4u);         // a5 -> y bit 2
    return AU2(x, y);
}

#elif defined(A_GPU) && defined(A_GLSL)
 #error "ffx_a.h (shc): only the HLSL path is provided; define A_HLSL instead of A_GLSL"
#elif defined(A_CPU)
 #error "ffx_a.h (shc): there is no CPU path; shaders run through the shc runtime instead"
#else
 #error "ffx_a.h (shc): define A_GPU and A_HLSL before including this header"
#endif

#endif // A_PORTABILITY_HEADER
