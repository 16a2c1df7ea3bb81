// conformance: HLSL 2021 does not allow overloading assignment operators
// error: overloading 'operator=' is not allowed
struct S {
    float x;
    void operator=(S other) { x = other.x; }
};
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main()
{
    S s;
    s.x = 1;
    o[0] = s.x;
}
