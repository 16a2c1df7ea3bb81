// A header with one mistake, included by include.hlsl.
#define TWICE(v) ((v) + (v))
#define SCALE 0.5

float3 Brighten(float3 c)
{
    return c * brightness;
}
