"""The table of HLSL intrinsic functions and resource methods: data only.

``intrinsics.py`` parses these signatures and resolves calls against them. A
signature reads like a C declaration with a tiny template language::

    T clamp(T x, T lo, T hi)        one template T over numeric scalar/vector/matrix
    T:1 dot(T:n a, T:n b)           T:1 scalar, T:n vector of n, T:r*c matrix
    bool<F> isnan(F x)              F's shape with a bool element
    void InterlockedAdd(inout M:1 dest, M:1 value, [out M:1 original])

Parameter names are for ``--help`` only; ``[...]`` marks an optional trailing
parameter; ``out``/``inout`` mark parameters that must be l-values. In resource
methods ``$name`` stands for a type taken from the resource (see
``intrinsics.method_placeholders``).
"""

from __future__ import annotations

from dataclasses import dataclass

# Template letters: name -> (element class, shape class).
# Element classes: "numeric" (int/uint/float; bool becomes int), "floating" (DXC's
# float_like: half stays half, every other type becomes float, a double with a warning),
# "any_float" (half, float and double stay; integers become float), "integer", "any" (bool allowed), "bits32" (32-bit
# int/uint/float), "atomic" (32/64-bit int/uint), or a scalar type name (every
# argument converts to it). Shape classes: "any" (scalar/vector/matrix), "sv" (no matrix).
TEMPLATES: dict[str, tuple[str, str]] = {
    "T": ("numeric", "any"),
    "F": ("floating", "any"),
    "E": ("any_float", "any"),
    "I": ("integer", "any"),
    "A": ("any", "any"),
    "R": ("bits32", "any"),
    "M": ("atomic", "sv"),
    "D": ("double", "any"),
    "G": ("float", "any"),
    "U": ("uint", "any"),
    "W": ("numeric", "sv"),  # wave / quad values
    "K": ("integer", "sv"),
    "X": ("any", "sv"),
    "B": ("bool", "any"),
    "H": ("bits16", "any"),
    "P": ("int16or32", "sv"),  # pack_u8 / pack_s8
    "S": ("sint16or32", "sv"),  # pack_clamp_*: signed only, as in DXC
}

# How --help and diagnostics explain each letter.
TEMPLATE_DOCS: dict[str, str] = {
    "T": "int, uint or float scalar, vector or matrix (bool becomes int)",
    "F": "half or float scalar, vector or matrix (integers and double become float)",
    "E": "half, float or double scalar, vector or matrix (integers become float)",
    "I": "int or uint scalar, vector or matrix",
    "A": "any numeric or bool scalar, vector or matrix",
    "R": "32-bit int, uint or float scalar, vector or matrix",
    "M": "32- or 64-bit int or uint",
    "D": "double scalar, vector or matrix",
    "G": "float scalar, vector or matrix",
    "U": "uint scalar, vector or matrix",
    "W": "int, uint or float scalar or vector",
    "K": "int or uint scalar or vector",
    "X": "any numeric or bool scalar or vector",
    "B": "bool scalar, vector or matrix (numbers become bool)",
    "H": "16-bit int16_t, uint16_t or half scalar, vector or matrix",
    "P": "16- or 32-bit int or uint vector",
    "S": "16- or 32-bit signed int vector",
}

GROUPS = ("math", "bits", "conversion", "wave", "quad", "barrier", "atomic", "resource", "misc")


@dataclass(frozen=True)
class Entry:
    """One intrinsic function or resource method and its overloads."""

    name: str
    group: str
    doc: str
    signatures: tuple[str, ...]
    uniform_result: bool = False  # the result is the same in every lane of the wave
    writes_resource: bool = False
    kinds: frozenset[str] = frozenset()  # methods: the resource kinds that have it
    rejected: str = ""  # recognised but refused: the message to show
    vector_sizes: tuple[int, ...] = ()  # every argument must be a vector of one of these sizes


def fn(group: str, name: str, doc: str, *signatures: str, uniform: bool = False) -> Entry:
    return Entry(name, group, doc, signatures, uniform_result=uniform)


def refused(group: str, name: str, doc: str, message: str) -> Entry:
    return Entry(name, group, doc, (), rejected=message)


FUNCTIONS: tuple[Entry, ...] = (
    # math
    fn("math", "abs", "absolute value, per component", "T abs(T x)"),
    fn("math", "min", "smaller of two values, per component", "T min(T a, T b)"),
    fn("math", "max", "larger of two values, per component", "T max(T a, T b)"),
    fn("math", "clamp", "x limited to [lo, hi], per component", "T clamp(T x, T lo, T hi)"),
    fn("math", "saturate", "x clamped to [0, 1]", "E saturate(E x)"),
    fn("math", "lerp", "linear interpolation a + s * (b - a)", "F lerp(F a, F b, F s)"),
    fn("math", "sqrt", "square root", "F sqrt(F x)"),
    fn("math", "rsqrt", "reciprocal square root", "F rsqrt(F x)"),
    fn("math", "rcp", "reciprocal 1 / x", "E rcp(E x)"),
    fn("math", "exp", "e raised to x", "F exp(F x)"),
    fn("math", "exp2", "2 raised to x", "F exp2(F x)"),
    fn("math", "log", "natural logarithm", "F log(F x)"),
    fn("math", "log2", "base-2 logarithm", "F log2(F x)"),
    fn("math", "log10", "base-10 logarithm", "F log10(F x)"),
    fn("math", "pow", "x raised to y", "F pow(F x, F y)"),
    fn("math", "floor", "largest integer not above x", "F floor(F x)"),
    fn("math", "ceil", "smallest integer not below x", "F ceil(F x)"),
    fn("math", "frac", "fractional part x - floor(x)", "F frac(F x)"),
    fn("math", "round", "x rounded to the nearest integer, ties to even", "F round(F x)"),
    fn("math", "trunc", "x rounded toward zero", "F trunc(F x)"),
    fn("math", "sin", "sine (radians)", "F sin(F x)"),
    fn("math", "cos", "cosine (radians)", "F cos(F x)"),
    fn("math", "tan", "tangent (radians)", "F tan(F x)"),
    fn("math", "asin", "arcsine", "F asin(F x)"),
    fn("math", "acos", "arccosine", "F acos(F x)"),
    fn("math", "atan", "arctangent", "F atan(F x)"),
    fn("math", "sinh", "hyperbolic sine", "F sinh(F x)"),
    fn("math", "cosh", "hyperbolic cosine", "F cosh(F x)"),
    fn("math", "tanh", "hyperbolic tangent", "F tanh(F x)"),
    fn("math", "atan2", "arctangent of y / x using both signs", "F atan2(F y, F x)"),
    fn("math", "sincos", "sine and cosine at once", "void sincos(F x, out F s, out F c)"),
    fn("math", "modf", "fractional part; whole part through ip", "F modf(F x, out F ip)"),
    fn("math", "dot", "dot product of two vectors", "T:1 dot(T:n a, T:n b)"),
    fn("math", "transpose", "rows and columns swapped", "T:c*r transpose(T:r*c m)"),
    fn("math", "reflect", "i reflected about the normal n: i - 2 * dot(i, n) * n", "F:n reflect(F:n i, F:n n)"),
    fn("math", "refract", "i refracted through the normal n with index ratio eta (0 on total internal reflection)",
       "F:n refract(F:n i, F:n n, F:1 eta)"),
    fn("math", "cross", "cross product of two 3-vectors", "F:3 cross(F:3 a, F:3 b)"),
    fn("math", "length", "Euclidean length of a vector", "F:1 length(F:n v)"),
    fn("math", "distance", "distance between two points", "F:1 distance(F:n a, F:n b)"),
    fn("math", "normalize", "v scaled to unit length", "F:n normalize(F:n v)"),
    fn("math", "mad", "a * b + c", "T mad(T a, T b, T c)"),
    fn("math", "fma", "fused a * b + c in double precision", "D fma(D a, D b, D c)"),
    fn("math", "step", "1 where x >= edge, else 0", "F step(F edge, F x)"),
    fn("math", "smoothstep", "Hermite interpolation between lo and hi", "F smoothstep(F lo, F hi, F x)"),
    fn("math", "sign", "-1, 0 or 1 by the sign of x", "int<T> sign(T x)"),
    fn("math", "all", "true if every component is nonzero", "bool all(A x)"),
    fn("math", "any", "true if some component is nonzero", "bool any(A x)"),
    # HLSL 2021: element-wise and never short-circuiting (every argument is evaluated);
    # scalars broadcast to the other arguments' shape
    fn("math", "select", "a where cond is true, else b, per component", "A select(bool<A> cond, A a, A b)"),
    fn("math", "and", "logical and, per component, both sides evaluated", "B and(B a, B b)"),
    fn("math", "or", "logical or, per component, both sides evaluated", "B or(B a, B b)"),
    fn("math", "isnan", "true where x is NaN", "bool<F> isnan(F x)"),
    fn("math", "isinf", "true where x is infinite", "bool<F> isinf(F x)"),
    fn("math", "isfinite", "true where x is neither NaN nor infinite", "bool<F> isfinite(F x)"),
    fn("math", "ldexp", "x * 2^exp", "F ldexp(F x, F exp)"),
    fn("math", "fmod", "floating-point remainder of x / y, sign of x", "F fmod(F x, F y)"),
    fn("math", "degrees", "radians to degrees", "F degrees(F x)"),
    fn("math", "radians", "degrees to radians", "F radians(F x)"),
    # Vector/matrix forms first: with equal costs (truncations) the earlier form wins.
    fn("math", "mul", "product with HLSL matrix/vector shape rules",
       "T:1 mul(T:n a, T:n b)",
       "T:c mul(T:r v, T:r*c m)",
       "T:r mul(T:r*c m, T:c v)",
       "T:r*c mul(T:r*k a, T:k*c b)",
       "T:1 mul(T:1 a, T:1 b)",
       "T:n mul(T:1 a, T:n b)",
       "T:n mul(T:n a, T:1 b)",
       "T:r*c mul(T:1 a, T:r*c b)",
       "T:r*c mul(T:r*c a, T:1 b)"),
    Entry("AddUint64", "math", "64-bit add of (low, high) uint pairs, carry included",
          ("U:n AddUint64(U:n a, U:n b)",), vector_sizes=(2, 4)),
    fn("math", "dot2add", "acc + a.x * b.x + a.y * b.y, products and sum in float",
       "float dot2add(half2 a, half2 b, float acc)"),
    fn("math", "dot4add_i8packed", "acc + dot product of the four signed bytes of a and of b",
       "int dot4add_i8packed(uint a, uint b, int acc)"),
    fn("math", "dot4add_u8packed", "acc + dot product of the four unsigned bytes of a and of b",
       "uint dot4add_u8packed(uint a, uint b, uint acc)"),
    # bits
    fn("bits", "countbits", "number of set bits", "uint<I> countbits(I x)"),
    fn("bits", "firstbithigh", "index of the highest set bit (sign bit skipped for int), -1 if none",
       "uint<I> firstbithigh(I x)"),
    fn("bits", "firstbitlow", "index of the lowest set bit, -1 if none", "uint<I> firstbitlow(I x)"),
    fn("bits", "reversebits", "bits in reverse order", "I reversebits(I x)"),
    # conversion
    fn("conversion", "asuint", "bit pattern reinterpreted as uint",
       "uint<R> asuint(R x)", "void asuint(D x, out uint<D> low, out uint<D> high)"),
    fn("conversion", "asint", "bit pattern reinterpreted as int", "int<R> asint(R x)"),
    fn("conversion", "asfloat", "bit pattern reinterpreted as float", "float<R> asfloat(R x)"),
    fn("conversion", "asdouble", "double from its low and high 32 bits", "double<U> asdouble(U low, U high)"),
    fn("conversion", "asint16", "bit pattern of a 16-bit value reinterpreted as int16_t", "int16_t<H> asint16(H x)"),
    fn("conversion", "asuint16", "bit pattern of a 16-bit value reinterpreted as uint16_t",
       "uint16_t<H> asuint16(H x)"),
    fn("conversion", "asfloat16", "bit pattern of a 16-bit value reinterpreted as half", "half<H> asfloat16(H x)"),
    fn("conversion", "D3DCOLORtoUBYTE4", "a D3DCOLOR's channels as bytes: int4(x.zyxw * 255.001953)",
       "int4 D3DCOLORtoUBYTE4(float4 x)"),
    # SM 6.6 packed bytes: pack_* keep the low 8 bits of each component, pack_clamp_* saturate first
    fn("conversion", "pack_u8", "low bytes of four integers packed, x lowest", "uint8_t4_packed pack_u8(P:4 v)"),
    fn("conversion", "pack_s8", "low bytes of four integers packed, x lowest", "int8_t4_packed pack_s8(P:4 v)"),
    fn("conversion", "pack_clamp_u8", "four integers clamped to [0, 255] and packed, x lowest",
       "uint8_t4_packed pack_clamp_u8(S:4 v)"),
    fn("conversion", "pack_clamp_s8", "four integers clamped to [-128, 127] and packed, x lowest",
       "int8_t4_packed pack_clamp_s8(S:4 v)"),
    fn("conversion", "unpack_u8u32", "the four bytes, zero-extended, x from the lowest",
       "uint4 unpack_u8u32(uint8_t4_packed v)"),
    fn("conversion", "unpack_u8u16", "the four bytes, zero-extended, x from the lowest",
       "uint16_t4 unpack_u8u16(uint8_t4_packed v)"),
    fn("conversion", "unpack_s8s32", "the four bytes, sign-extended, x from the lowest",
       "int4 unpack_s8s32(int8_t4_packed v)"),
    fn("conversion", "unpack_s8s16", "the four bytes, sign-extended, x from the lowest",
       "int16_t4 unpack_s8s16(int8_t4_packed v)"),
    fn("conversion", "f32tof16", "float to half bits in the low 16 bits of a uint", "uint<G> f32tof16(G x)"),
    fn("conversion", "f16tof32", "half bits in the low 16 bits of x to float", "float<U> f16tof32(U x)"),
    # wave
    fn("wave", "WaveGetLaneIndex", "this lane's index in the wave", "uint WaveGetLaneIndex()"),
    fn("wave", "WaveGetLaneCount", "lanes per wave (32 or 64)", "uint WaveGetLaneCount()", uniform=True),
    fn("wave", "WaveIsFirstLane", "true in the lowest active lane", "bool WaveIsFirstLane()"),
    fn("wave", "WaveReadLaneAt", "value from the given lane", "X WaveReadLaneAt(X value, uint lane)"),
    fn("wave", "WaveReadLaneFirst", "value from the lowest active lane", "X WaveReadLaneFirst(X value)",
       uniform=True),
    fn("wave", "WaveActiveAnyTrue", "true if any active lane has true", "bool WaveActiveAnyTrue(bool b)",
       uniform=True),
    fn("wave", "WaveActiveAllTrue", "true if every active lane has true", "bool WaveActiveAllTrue(bool b)",
       uniform=True),
    fn("wave", "WaveActiveAllEqual", "true where every active lane has the same value",
       "bool<X> WaveActiveAllEqual(X value)", uniform=True),
    fn("wave", "WaveActiveBallot", "bit mask of the active lanes with true", "uint4 WaveActiveBallot(bool b)",
       uniform=True),
    fn("wave", "WaveActiveCountBits", "number of active lanes with true", "uint WaveActiveCountBits(bool b)",
       uniform=True),
    fn("wave", "WaveActiveSum", "sum over the active lanes", "W WaveActiveSum(W value)", uniform=True),
    fn("wave", "WaveActiveProduct", "product over the active lanes", "W WaveActiveProduct(W value)",
       uniform=True),
    fn("wave", "WaveActiveMin", "minimum over the active lanes", "W WaveActiveMin(W value)", uniform=True),
    fn("wave", "WaveActiveMax", "maximum over the active lanes", "W WaveActiveMax(W value)", uniform=True),
    fn("wave", "WaveActiveBitAnd", "bitwise and over the active lanes", "K WaveActiveBitAnd(K value)",
       uniform=True),
    fn("wave", "WaveActiveBitOr", "bitwise or over the active lanes", "K WaveActiveBitOr(K value)",
       uniform=True),
    fn("wave", "WaveActiveBitXor", "bitwise xor over the active lanes", "K WaveActiveBitXor(K value)",
       uniform=True),
    fn("wave", "WavePrefixSum", "sum over the active lanes below this one", "W WavePrefixSum(W value)"),
    fn("wave", "WavePrefixProduct", "product over the active lanes below this one",
       "W WavePrefixProduct(W value)"),
    fn("wave", "WavePrefixCountBits", "number of active lanes below this one with true",
       "uint WavePrefixCountBits(bool b)"),
    fn("wave", "WaveMatch", "mask of the active lanes whose value has the same bits as this lane's",
       "uint4 WaveMatch(W value)"),
    fn("wave", "WaveMultiPrefixSum", "sum over the active lanes of mask below this one",
       "W WaveMultiPrefixSum(W value, uint4 mask)"),
    fn("wave", "WaveMultiPrefixProduct", "product over the active lanes of mask below this one",
       "W WaveMultiPrefixProduct(W value, uint4 mask)"),
    fn("wave", "WaveMultiPrefixCountBits", "number of active lanes of mask below this one with true",
       "uint WaveMultiPrefixCountBits(bool b, uint4 mask)"),
    fn("wave", "WaveMultiPrefixBitAnd", "bitwise and over the active lanes of mask below this one",
       "K WaveMultiPrefixBitAnd(K value, uint4 mask)"),
    fn("wave", "WaveMultiPrefixBitOr", "bitwise or over the active lanes of mask below this one",
       "K WaveMultiPrefixBitOr(K value, uint4 mask)"),
    fn("wave", "WaveMultiPrefixBitXor", "bitwise xor over the active lanes of mask below this one",
       "K WaveMultiPrefixBitXor(K value, uint4 mask)"),
    fn("wave", "WaveShuffleXor", "value of lane WaveGetLaneIndex() ^ laneMask (shc extension)",
       "X WaveShuffleXor(X value, uint laneMask)"),
    # quad
    fn("quad", "QuadReadAcrossX", "value of the horizontal neighbour in the quad", "X QuadReadAcrossX(X value)"),
    fn("quad", "QuadReadAcrossY", "value of the vertical neighbour in the quad", "X QuadReadAcrossY(X value)"),
    fn("quad", "QuadReadAcrossDiagonal", "value of the diagonal neighbour in the quad",
       "X QuadReadAcrossDiagonal(X value)"),
    fn("quad", "QuadReadLaneAt", "value of the given lane (0-3) of the quad", "X QuadReadLaneAt(X value, uint lane)"),
    # misc
    fn("misc", "NonUniformResourceIndex", "marks a resource index that differs between lanes",
       "uint NonUniformResourceIndex(uint index)"),
    fn("misc", "CheckAccessFullyMapped", "whether a Load's status says all it read was mapped (always: "
       "shc has no tiled resources; status != 0)", "bool CheckAccessFullyMapped(uint status)"),
    refused("misc", "ddx", "screen-space derivative", "'ddx' needs pixel-shader derivatives; not available in compute"),
    refused("misc", "ddy", "screen-space derivative", "'ddy' needs pixel-shader derivatives; not available in compute"),
    refused("misc", "fwidth", "screen-space derivative", "'fwidth' needs pixel-shader derivatives; not available in compute"),
    refused("misc", "clip", "discard the pixel", "'clip' is only available in pixel shaders"),
    # barrier
    fn("barrier", "GroupMemoryBarrier", "orders groupshared memory accesses", "void GroupMemoryBarrier()"),
    fn("barrier", "GroupMemoryBarrierWithGroupSync", "orders groupshared accesses and syncs the group",
       "void GroupMemoryBarrierWithGroupSync()"),
    fn("barrier", "DeviceMemoryBarrier", "orders device memory accesses", "void DeviceMemoryBarrier()"),
    fn("barrier", "DeviceMemoryBarrierWithGroupSync", "orders device memory accesses and syncs the group",
       "void DeviceMemoryBarrierWithGroupSync()"),
    fn("barrier", "AllMemoryBarrier", "orders all memory accesses", "void AllMemoryBarrier()"),
    fn("barrier", "AllMemoryBarrierWithGroupSync", "orders all memory accesses and syncs the group",
       "void AllMemoryBarrierWithGroupSync()"),
    # atomic
    fn("atomic", "InterlockedAdd", "atomic dest += value",
       "void InterlockedAdd(inout M:1 dest, M:1 value, [out M:1 original])"),
    fn("atomic", "InterlockedAnd", "atomic dest &= value",
       "void InterlockedAnd(inout M:1 dest, M:1 value, [out M:1 original])"),
    fn("atomic", "InterlockedOr", "atomic dest |= value",
       "void InterlockedOr(inout M:1 dest, M:1 value, [out M:1 original])"),
    fn("atomic", "InterlockedXor", "atomic dest ^= value",
       "void InterlockedXor(inout M:1 dest, M:1 value, [out M:1 original])"),
    fn("atomic", "InterlockedMin", "atomic dest = min(dest, value)",
       "void InterlockedMin(inout M:1 dest, M:1 value, [out M:1 original])"),
    fn("atomic", "InterlockedMax", "atomic dest = max(dest, value)",
       "void InterlockedMax(inout M:1 dest, M:1 value, [out M:1 original])"),
    fn("atomic", "InterlockedExchange", "atomic swap of dest and value",
       "void InterlockedExchange(inout M:1 dest, M:1 value, out M:1 original)"),
    fn("atomic", "InterlockedCompareExchange", "atomic dest = value if dest == compare",
       "void InterlockedCompareExchange(inout M:1 dest, M:1 compare, M:1 value, out M:1 original)"),
    fn("atomic", "InterlockedCompareStore", "atomic dest = value if dest == compare, no result",
       "void InterlockedCompareStore(inout M:1 dest, M:1 compare, M:1 value)"),
)


# Resource kinds by what they can do.
TYPED_BUFFERS = frozenset({"Buffer", "RWBuffer"})
STRUCTURED_BUFFERS = frozenset({"StructuredBuffer", "RWStructuredBuffer"})
COUNTED_BUFFERS = frozenset({"AppendStructuredBuffer", "ConsumeStructuredBuffer"})
BYTE_ADDRESS_BUFFERS = frozenset({"ByteAddressBuffer", "RWByteAddressBuffer"})
RW_BYTE_ADDRESS = frozenset({"RWByteAddressBuffer"})
SAMPLED_TEXTURES = frozenset({"Texture1D", "Texture1DArray", "Texture2D", "Texture2DArray", "Texture3D",
                              "TextureCube", "TextureCubeArray"})
RW_TEXTURES = frozenset({"RWTexture1D", "RWTexture1DArray", "RWTexture2D", "RWTexture2DArray", "RWTexture3D"})
TEXTURES = SAMPLED_TEXTURES | RW_TEXTURES
LOADABLE_TEXTURES = TEXTURES - {"TextureCube", "TextureCubeArray"}
GATHER_TEXTURES = frozenset({"Texture2D", "Texture2DArray", "TextureCube", "TextureCubeArray"})


def method(kinds: frozenset[str], name: str, doc: str, *signatures: str, group: str = "resource",
           writes: bool = False) -> Entry:
    return Entry(name, group, doc, signatures, writes_resource=writes, kinds=kinds)


def refused_method(kinds: frozenset[str], name: str, message: str) -> Entry:
    return Entry(name, "resource", message, (), kinds=kinds, rejected=message)


_NO_SAMPLING = "{type} cannot be sampled: RW textures have no sampler methods; use Load or operator[]"


def _byte_address_atomic(name: str, doc: str, signed: bool = False) -> Entry:
    """A 32-bit atomic at a byte address; ``signed``: an ``int`` overload too, which compares
    signed (Min and Max, as DXC's ``int`` overloads do)."""
    types = ("uint", "int") if signed else ("uint",)
    forms = [f"void {name}(uint address, {t} value, [out {t} original])" for t in types]
    return method(RW_BYTE_ADDRESS, name, doc, *forms, group="atomic", writes=True)


def _byte_address_atomic64(name: str, doc: str, params: str, result: str = "[out {t} original]") -> Entry:
    """SM 6.6's 64-bit atomics on a byte address (8-aligned): one overload per signedness, which
    decides how Min64/Max64 compare."""
    forms = [f"void {name}(uint address, {params.format(t=t)}{', ' + result.format(t=t) if result else ''})"
             for t in ("uint64_t", "int64_t")]
    return method(RW_BYTE_ADDRESS, name, doc, *forms, group="atomic", writes=True)


def _gather_cmp(name: str, channel: str) -> Entry:
    return method(GATHER_TEXTURES, name, f"the {channel} channel of the four bilinear texels, each compared with "
                  f"the reference (the sampler's comparison): 1 or 0",
                  f"float4 {name}(SamplerComparisonState s, $coord uv, float compare)",
                  f"float4 {name}(SamplerComparisonState s, $coord uv, float compare, $offset offset)")


def _gather(name: str, channel: str) -> Entry:
    return method(GATHER_TEXTURES, name, f"the {channel} channel of the four bilinear texels",
                  f"$elem4 {name}(SamplerState s, $coord uv)",
                  f"$elem4 {name}(SamplerState s, $coord uv, $offset offset)")


METHODS: tuple[Entry, ...] = (
    method(TYPED_BUFFERS | STRUCTURED_BUFFERS, "Load", "element at index", "$elem Load(int index)",
           "$elem Load(int index, out uint status)"),
    method(TYPED_BUFFERS, "GetDimensions", "number of elements", "void GetDimensions(out uint count)"),
    method(STRUCTURED_BUFFERS | COUNTED_BUFFERS, "GetDimensions", "number of structures and their stride in bytes",
           "void GetDimensions(out uint count, out uint stride)"),
    method(frozenset({"RWStructuredBuffer"}), "IncrementCounter",
           "adds 1 to the buffer's hidden counter; the value before", "uint IncrementCounter()", writes=True),
    method(frozenset({"RWStructuredBuffer"}), "DecrementCounter",
           "subtracts 1 from the buffer's hidden counter; the value after", "uint DecrementCounter()", writes=True),
    method(frozenset({"AppendStructuredBuffer"}), "Append",
           "stores value at the hidden counter's value, which it increments", "void Append($elem value)",
           writes=True),
    method(frozenset({"ConsumeStructuredBuffer"}), "Consume",
           "decrements the hidden counter and loads the element at its new value", "$elem Consume()", writes=True),
    method(BYTE_ADDRESS_BUFFERS, "GetDimensions", "size in bytes", "void GetDimensions(out uint bytes)"),
    method(BYTE_ADDRESS_BUFFERS, "Load", "one uint at a byte address (multiple of 4), or a T with Load<T>",
           "uint Load(uint address)", "$T Load(uint address)", "uint Load(uint address, out uint status)",
           "$T Load(uint address, out uint status)"),
    *(method(BYTE_ADDRESS_BUFFERS, f"Load{n}", f"{n} uints at a byte address", f"uint{n} Load{n}(uint address)",
             f"uint{n} Load{n}(uint address, out uint status)") for n in (2, 3, 4)),
    method(RW_BYTE_ADDRESS, "Store", "stores one uint at a byte address, or a T with Store<T>",
           "void Store(uint address, uint value)", "void Store(uint address, $T value)", writes=True),
    method(RW_BYTE_ADDRESS, "Store2", "stores two uints at a byte address",
           "void Store2(uint address, uint2 value)", writes=True),
    method(RW_BYTE_ADDRESS, "Store3", "stores three uints at a byte address",
           "void Store3(uint address, uint3 value)", writes=True),
    method(RW_BYTE_ADDRESS, "Store4", "stores four uints at a byte address",
           "void Store4(uint address, uint4 value)", writes=True),
    _byte_address_atomic("InterlockedAdd", "atomic add at a byte address"),
    _byte_address_atomic("InterlockedMin", "atomic min at a byte address", signed=True),
    _byte_address_atomic("InterlockedMax", "atomic max at a byte address", signed=True),
    _byte_address_atomic("InterlockedAnd", "atomic and at a byte address"),
    _byte_address_atomic("InterlockedOr", "atomic or at a byte address"),
    _byte_address_atomic("InterlockedXor", "atomic xor at a byte address"),
    method(RW_BYTE_ADDRESS, "InterlockedExchange", "atomic swap at a byte address",
           "void InterlockedExchange(uint address, uint value, out uint original)", group="atomic", writes=True),
    method(RW_BYTE_ADDRESS, "InterlockedCompareExchange", "atomic compare-and-swap at a byte address",
           "void InterlockedCompareExchange(uint address, uint compare, uint value, out uint original)",
           group="atomic", writes=True),
    method(RW_BYTE_ADDRESS, "InterlockedCompareStore", "atomic compare-and-store at a byte address",
           "void InterlockedCompareStore(uint address, uint compare, uint value)", group="atomic", writes=True),
    *(_byte_address_atomic64(f"Interlocked{fn}64", f"64-bit atomic {fn.lower()} at a byte address", "{t} value")
      for fn in ("Add", "Min", "Max", "And", "Or", "Xor")),
    _byte_address_atomic64("InterlockedExchange64", "64-bit atomic swap at a byte address", "{t} value",
                           "out {t} original"),
    _byte_address_atomic64("InterlockedCompareExchange64", "64-bit atomic compare-and-swap at a byte address",
                           "{t} compare, {t} value", "out {t} original"),
    _byte_address_atomic64("InterlockedCompareStore64", "64-bit atomic compare-and-store at a byte address",
                           "{t} compare, {t} value", ""),
    # Textures. $loc has a mip component unless the texture is RW.
    method(LOADABLE_TEXTURES, "Load", "texel at an integer location (plus mip level for read-only textures)",
           "$elem Load($loc location)", "$elem Load($loc location, $offset offset)",
           "$elem Load($loc location, $offset offset, out uint status)"),
    method(RW_TEXTURES, "Load", "texel at an integer location", "$elem Load($loc location, out uint status)"),
    method(TEXTURES, "GetDimensions", "size in texels (and array elements / mip levels)",
           "void GetDimensions($sizes)", "void GetDimensions($fsizes)"),
    method(SAMPLED_TEXTURES, "GetDimensions", "size of a mip level and the number of levels",
           "void GetDimensions(uint mip, $sizes, out uint levels)",
           "void GetDimensions(uint mip, $fsizes, out float levels)"),
    method(SAMPLED_TEXTURES, "SampleLevel", "filtered sample at an explicit mip level",
           "$elem SampleLevel(SamplerState s, $coord uv, float lod)",
           "$elem SampleLevel(SamplerState s, $coord uv, float lod, $offset offset)"),
    method(SAMPLED_TEXTURES, "SampleGrad", "filtered sample with explicit gradients",
           "$elem SampleGrad(SamplerState s, $coord uv, $grad ddx, $grad ddy)",
           "$elem SampleGrad(SamplerState s, $coord uv, $grad ddx, $grad ddy, $offset offset)"),
    method(SAMPLED_TEXTURES - {"Texture3D"}, "SampleCmpLevelZero",
           "mip 0 filtered after comparing the reference with each texel (the sampler's comparison)",
           "float SampleCmpLevelZero(SamplerComparisonState s, $coord uv, float compare)",
           "float SampleCmpLevelZero(SamplerComparisonState s, $coord uv, float compare, $offset offset)"),
    *(_gather_cmp(name, channel) for name, channel in (("GatherCmp", "first"), ("GatherCmpRed", "red"),
                                                       ("GatherCmpGreen", "green"), ("GatherCmpBlue", "blue"),
                                                       ("GatherCmpAlpha", "alpha"))),
    *(_gather(name, channel) for name, channel in (("Gather", "first"), ("GatherRed", "red"),
                                                   ("GatherGreen", "green"), ("GatherBlue", "blue"),
                                                   ("GatherAlpha", "alpha"))),
    refused_method(SAMPLED_TEXTURES, "Sample",
                   "'Sample' needs implicit derivatives, which compute shaders lack before SM 6.6; "
                   "use SampleLevel or SampleGrad"),
    refused_method(SAMPLED_TEXTURES, "SampleBias",
                   "'SampleBias' needs implicit derivatives, which compute shaders lack; use SampleLevel"),
    refused_method(RW_TEXTURES, "Sample", _NO_SAMPLING),
    refused_method(RW_TEXTURES, "SampleLevel", _NO_SAMPLING),
    refused_method(RW_TEXTURES, "SampleGrad", _NO_SAMPLING),
    refused_method(RW_TEXTURES, "Gather", _NO_SAMPLING),
)
