// Golden: several type errors in one run, each with its line and caret.
RWStructuredBuffer<float4> output : register(u0);
Texture2D<float4> source : register(t0);

struct Particle
{
    float3 position;
    float mass;
};

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Particle p;
    p.velocity = 1;
    float2 uv = p.position.xy;
    float4 color = uv.xyzw;
    source[id.xy] = color;
	float3 tabbed = p.mass.xxw;
    output[id.x] = float4(p.position, 1) * sizes;
    float2 narrowed = output[id.x];
}
