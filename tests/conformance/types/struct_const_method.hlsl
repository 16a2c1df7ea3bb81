// conformance: const methods read their object (also a const variable's and a const parameter's) and call other const methods
// buffer: o float32[3]
// expect: o = 12 24 18
struct S {
    float x;
    float twice() const { return x * 2; }
    float four_times() const;
    void set(float v) { x = v; }
};
float S::four_times() const { return twice() * 2; }
float through(const S s) { return s.twice(); }
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main()
{
    S s;
    s.set(6);
    const S c = s;
    o[0] = c.twice();
    o[1] = s.four_times();
    o[2] = through(s) + 6;
}
