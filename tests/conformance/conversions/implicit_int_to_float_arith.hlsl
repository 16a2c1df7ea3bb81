// conformance: int * float converts the int to float first
// buffer: a int32 = 3 -3 16777217
// buffer: o float32[3]
// expect: o = 1.5 -1.5 8.388608e+06
StructuredBuffer<int> a;
RWStructuredBuffer<float> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = x * 0.5f;
}
