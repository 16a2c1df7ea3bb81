//==============================================================================================
// transpose.hlsl -- transpose of a height x width float32 matrix through a 32 x 33 LDS tile
//
// Each group of 32 x 8 threads moves one 32 x 32 tile: it reads the tile's rows (lane x of
// row y reads source[y][x], so a wave reads whole rows), parks them in groupshared memory,
// and after one barrier writes the tile's columns as rows of the target (lane x of row y
// writes target[y][x] = tile[x][y]). Each thread moves 32 / 8 = 4 elements each way. The
// tile has 33 columns, not 32: reading a column of a 32-wide tile would hit one LDS bank
// 32 times; with the extra column, the 32 elements of a column fall in 32 different banks.
//
// target[x][y] = source[y][x]; target is width x height, row-major like source.
//
// Dispatch: ((width + 31) / 32, (height + 31) / 32, 1).
// Bindings:
//   b0  transposeConstants  width, height: the source's size
//   t0  source              StructuredBuffer<float>, height * width, row-major
//   u0  target              RWStructuredBuffer<float>, width * height, row-major
//==============================================================================================

#define TILE 32
#define ROWS 8                                  // rows of threads; each moves TILE / ROWS rows

cbuffer transposeConstants : register(b0)
{
    uint width;
    uint height;
};

StructuredBuffer<float> source : register(t0);
RWStructuredBuffer<float> target : register(u0);

groupshared float tile[TILE][TILE + 1];

[numthreads(TILE, ROWS, 1)]
void main(uint3 groupId : SV_GroupID, uint3 threadId : SV_GroupThreadID)
{
    uint2 corner = groupId.xy * TILE;            // the tile's top-left element in the source

    [unroll]
    for (uint r = 0; r < TILE; r += ROWS)
    {
        uint x = corner.x + threadId.x;
        uint y = corner.y + threadId.y + r;
        if (x < width && y < height)
        {
            tile[threadId.y + r][threadId.x] = source[y * width + x];
        }
    }
    GroupMemoryBarrierWithGroupSync();

    [unroll]
    for (uint r = 0; r < TILE; r += ROWS)
    {
        uint x = corner.y + threadId.x;          // a column of the source is a row of the target
        uint y = corner.x + threadId.y + r;
        if (x < height && y < width)
        {
            target[y * height + x] = tile[threadId.x][threadId.y + r];
        }
    }
}
