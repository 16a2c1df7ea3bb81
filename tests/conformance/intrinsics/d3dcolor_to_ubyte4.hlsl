// conformance: D3DCOLORtoUBYTE4(c) = int4(c.zyxw * 255.001953): swizzled, scaled, truncated
// buffer: c float32 = 1.0 0.5 0.0 1.0 0.2 0.4 0.6 0.8 0.998 0.999 0.001 0.002 0.003921569 0.007843138 0.99607843 0.0
// buffer: o int32[16]
// expect: o = 0 127 255 255 153 102 51 204 0 254 254 0 254 2 1 0
StructuredBuffer<float4> c;
RWStructuredBuffer<int4> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = D3DCOLORtoUBYTE4(c[id.x]);
}
