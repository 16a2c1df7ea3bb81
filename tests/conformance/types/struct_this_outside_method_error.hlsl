// conformance: 'this' outside a non-static method is an error
// error: 'this' is only available in non-static methods
struct S { float x; static float f() { return this.x; } };
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main()
{
    o[0] = S::f();
}
