// conformance: inside a method a parameter hides a member (this.x reaches it) and a member hides a global; static methods, S::f and obj.f
// buffer: o float32[5]
// expect: o = 13 3 107 6 9
static const float x = 100;
static const float k = 7;
struct S {
    float x;
    float with(float x) { return x + this.x; }
    float member() { return x; }
    static float global_k() { return k + x_of_global(); }
    static float x_of_global() { return 100; }
    static float triple(float v) { return v * 3; }
    float tripled_member() { return S::triple(this.x) + triple(1); }
};
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main()
{
    S s;
    s.x = 3;
    o[0] = s.with(10);
    o[1] = s.member();
    o[2] = S::global_k();
    o[3] = s.tripled_member() - 6;
    o[4] = s.triple(3);
}
