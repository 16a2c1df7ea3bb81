// conformance: 'class' declares a struct whose members are all public; a base's method on a derived object; out-of-line methods
// buffer: o uint32[3]
// expect: o = 10 15 5
class Shape {
    uint w;
    uint area();
    void grow(uint d) { w += d; }
};
uint Shape::area() { return w * 2; }
class Rect : Shape {
    uint h;
    uint area2() { return w * h; }
};
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main()
{
    Rect r;
    r.w = 3;
    r.h = 5;
    r.grow(2);
    o[0] = r.area();
    o[1] = r.w * 3;
    o[2] = r.area2() / r.w;
}
