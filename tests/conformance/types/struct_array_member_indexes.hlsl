// conformance: a local array of structs holding arrays, indexed at run time at both levels, loads and stores
// buffer: idx uint32 = 2 1 3
// buffer: o uint32[4]
// expect: o = 1021 21 11 120
struct S { uint arr[4]; uint k; };
StructuredBuffer<uint> idx;
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main()
{
    S s[3];
    for (uint i = 0; i < 3; i++) {
        s[i].k = i;
        for (uint j = 0; j < 4; j++) s[i].arr[j] = i * 10 + j;
    }
    s[idx[0]].arr[idx[1]] += 1000;
    s[idx[1]].arr[idx[2]] = s[idx[1]].k * 100 + s[idx[0]].arr[0];
    o[0] = s[idx[0]].arr[idx[1]];
    o[1] = s[idx[0]].arr[0] + s[idx[2] - 3].arr[idx[1]];
    o[2] = s[idx[1]].arr[idx[1]];
    o[3] = s[idx[1]].arr[idx[2]];
}
