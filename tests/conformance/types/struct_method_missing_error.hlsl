// conformance: calling a method a struct does not have is an error at the method's name
// error: no method named 'length' in 'S'
struct S { float x; float get() { return x; } };
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main()
{
    S s;
    s.x = 1;
    o[0] = s.length();
}
