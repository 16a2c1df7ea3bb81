// conformance: firstbithigh(int) of a negative value finds the highest clear bit; 0 and -1 give -1
// D3D firstbit_shi: for negative input the first 0 bit from the MSB side; 0 and -1 give 0xFFFFFFFF.
// buffer: a int32 = 0 -1 -2 5 -2147483648 1073741824
// buffer: o int32[6]
// expect: o = -1 -1 0 2 30 30
StructuredBuffer<int> a;
RWStructuredBuffer<int> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = firstbithigh(x);
}
