"""HLSL types as semantic analysis sees them.

Types are immutable values compared by structure (structs by name). Scalar types
are singletons in ``SCALARS``; ``vector``, ``matrix`` build the composite forms.
16-bit types stay 16-bit (DXC's ``-enable-16bit-types`` semantics, which the
FP16 paths of SPD rely on): ``half``, ``min16float`` and ``float16_t`` are one type.
"""

from __future__ import annotations

from dataclasses import dataclass


class Type:
    """Base of every HLSL type."""

    __slots__ = ()

    @property
    def is_numeric(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class ScalarType(Type):
    """A scalar: ``bits`` wide, of ``kind`` "bool", "int", "uint" or "float"."""

    name: str
    bits: int
    kind: str  # "bool", "int", "uint" or "float"

    def __str__(self) -> str:
        return self.name

    @property
    def is_numeric(self) -> bool:
        return True

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_integer(self) -> bool:
        return self.kind in ("int", "uint")

    @property
    def is_signed(self) -> bool:
        return self.kind in ("int", "float")

    @property
    def element(self) -> ScalarType:
        return self

    @property
    def components(self) -> int:
        return 1


@dataclass(frozen=True, slots=True)
class VectorType(Type):
    """``size`` (1 to 4) components of ``element``: ``float4``."""

    element: ScalarType
    size: int

    def __str__(self) -> str:
        return f"{self.element}{self.size}"

    @property
    def is_numeric(self) -> bool:
        return True

    @property
    def components(self) -> int:
        return self.size


@dataclass(frozen=True, slots=True)
class MatrixType(Type):
    """``rows`` x ``cols`` of ``element``: ``float4x4``."""

    element: ScalarType
    rows: int
    cols: int

    def __str__(self) -> str:
        return f"{self.element}{self.rows}x{self.cols}"

    @property
    def is_numeric(self) -> bool:
        return True

    @property
    def components(self) -> int:
        return self.rows * self.cols

    @property
    def row_type(self) -> Type:
        """``m[i]``: a vector even for one column (``float3x1``'s rows are ``float1``, so
        ``m[i][0]`` works as in DXC)."""
        return VectorType(self.element, self.cols)


@dataclass(frozen=True, slots=True)
class ArrayType(Type):
    """``size`` elements of ``element``, or an unbounded resource array (``size`` None)."""

    element: Type
    size: int | None  # None: unbounded (resource arrays declared with [])

    def __str__(self) -> str:
        inner, dims = self.element, [self.size]
        while isinstance(inner, ArrayType):
            dims.append(inner.size)
            inner = inner.element
        return str(inner) + "".join(f"[{'' if d is None else d}]" for d in dims)


@dataclass(frozen=True, slots=True, eq=False)
class StructType(Type):
    """A struct; a derived one (``struct B : A``) holds its base's fields first, in the base's
    order (a base field the derived struct declares again is kept as ``A::name``), so a ``B``
    starts with an ``A`` in every layout and converts to one by dropping the rest."""

    name: str
    fields: tuple[tuple[str, Type], ...]
    base: StructType | None = None

    def __str__(self) -> str:
        return self.name

    def derives_from(self, other: Type) -> bool:
        """``other`` is this struct's base, or its base's base..."""
        base = self.base
        while base is not None:
            if base == other:
                return True
            base = base.base
        return False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StructType) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("struct", self.name))

    def field(self, name: str) -> Type | None:
        for field_name, field_type in self.fields:
            if field_name == name:
                return field_type
        return None


# Resource kinds: name -> (writable, dimensions of the coordinate, is texture, is array)
RESOURCE_KINDS: dict[str, tuple[bool, int, bool, bool]] = {
    "Buffer": (False, 1, False, False),
    "RWBuffer": (True, 1, False, False),
    "StructuredBuffer": (False, 1, False, False),
    "RWStructuredBuffer": (True, 1, False, False),
    "AppendStructuredBuffer": (True, 1, False, False),  # UAVs with a hidden counter, no []
    "ConsumeStructuredBuffer": (True, 1, False, False),
    "ByteAddressBuffer": (False, 1, False, False),
    "RWByteAddressBuffer": (True, 1, False, False),
    "Texture1D": (False, 1, True, False),
    "Texture1DArray": (False, 2, True, True),
    "Texture2D": (False, 2, True, False),
    "Texture2DArray": (False, 3, True, True),
    "Texture3D": (False, 3, True, False),
    "TextureCube": (False, 3, True, False),
    "TextureCubeArray": (False, 4, True, True),
    "RWTexture1D": (True, 1, True, False),
    "RWTexture1DArray": (True, 2, True, True),
    "RWTexture2D": (True, 2, True, False),
    "RWTexture2DArray": (True, 3, True, True),
    "RWTexture3D": (True, 3, True, False),
}
SAMPLER_KINDS = ("SamplerState", "SamplerComparisonState")
CUBE_KINDS = ("TextureCube", "TextureCubeArray")  # sampled by direction, six faces a cube


@dataclass(frozen=True, slots=True)
class ResourceType(Type):
    """A buffer or texture: ``RWTexture2D<float4>``, ``ByteAddressBuffer``."""

    kind: str  # a key of RESOURCE_KINDS
    element: Type | None  # None for byte-address buffers
    globally_coherent: bool = False

    def __str__(self) -> str:
        prefix = "globallycoherent " if self.globally_coherent else ""
        if self.element is None:
            return prefix + self.kind
        return f"{prefix}{self.kind}<{self.element}>"

    @property
    def writable(self) -> bool:
        return RESOURCE_KINDS[self.kind][0]

    @property
    def coord_dims(self) -> int:
        return RESOURCE_KINDS[self.kind][1]

    @property
    def is_texture(self) -> bool:
        return RESOURCE_KINDS[self.kind][2]

    @property
    def is_array(self) -> bool:
        return RESOURCE_KINDS[self.kind][3]


@dataclass(frozen=True, slots=True)
class SamplerType(Type):
    """``SamplerState`` or ``SamplerComparisonState``."""

    kind: str  # "SamplerState" or "SamplerComparisonState"

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class VoidType(Type):
    """``void``: what a function without a result returns."""

    def __str__(self) -> str:
        return "void"


@dataclass(frozen=True, slots=True)
class InitListType(Type):
    """The type of a brace initializer list before it meets its target."""

    def __str__(self) -> str:
        return "initializer list"


VOID = VoidType()
INIT_LIST = InitListType()

BOOL = ScalarType("bool", 32, "bool")
INT = ScalarType("int", 32, "int")
UINT = ScalarType("uint", 32, "uint")
FLOAT = ScalarType("float", 32, "float")
HALF = ScalarType("half", 16, "float")
DOUBLE = ScalarType("double", 64, "float")
INT16 = ScalarType("int16_t", 16, "int")
UINT16 = ScalarType("uint16_t", 16, "uint")
INT64 = ScalarType("int64_t", 64, "int")
UINT64 = ScalarType("uint64_t", 64, "uint")

# Every scalar type name HLSL accepts, including aliases.
SCALARS: dict[str, ScalarType] = {
    "bool": BOOL,
    "int": INT,
    "int32_t": INT,
    "uint": UINT,
    "uint32_t": UINT,
    "dword": UINT,
    "unsigned int": UINT,
    "float": FLOAT,
    "float32_t": FLOAT,
    "half": HALF,
    "float16_t": HALF,
    "min16float": HALF,
    "min10float": HALF,
    "double": DOUBLE,
    "float64_t": DOUBLE,
    "int16_t": INT16,
    "min16int": INT16,
    "min12int": INT16,
    "uint16_t": UINT16,
    "min16uint": UINT16,
    "int64_t": INT64,
    "uint64_t": UINT64,
}


def vector(element: ScalarType, size: int) -> Type:
    """``element`` as a ``size``-component vector; size 1 is the scalar itself."""
    return element if size == 1 else VectorType(element, size)


def matrix(element: ScalarType, rows: int, cols: int) -> MatrixType:
    return MatrixType(element, rows, cols)


def builtin_type_names() -> dict[str, Type]:
    """Every built-in numeric type name: scalars, ``float4``, ``uint2x3``..."""
    names: dict[str, Type] = {}
    for name, scalar in SCALARS.items():
        if " " in name:
            continue
        names[name] = scalar
        for n in range(1, 5):
            names[f"{name}{n}"] = VectorType(scalar, n)
            for m in range(1, 5):
                names[f"{name}{n}x{m}"] = MatrixType(scalar, n, m)
    return names


# SM 6.6: four 8-bit integers packed in a 32-bit uint. Front-end types (DXC's p32u8/p32i8):
# they convert to and from uint without changing a bit, and the IR sees them as uint.
UINT8_4_PACKED = ScalarType("uint8_t4_packed", 32, "uint")
INT8_4_PACKED = ScalarType("int8_t4_packed", 32, "uint")
PACKED_TYPES = {t.name: t for t in (UINT8_4_PACKED, INT8_4_PACKED)}


def __getattr__(name: str):
    """``BUILTIN_TYPES`` (every built-in type name: ``builtin_type_names`` and the packed types),
    built on first use: its 400-odd types are the lexer's, parser's and checker's, and a kernel
    read from the cache (``runtime/kernel.py``) uses this module without them."""
    if name == "BUILTIN_TYPES":
        table = globals()["BUILTIN_TYPES"] = {**builtin_type_names(), **PACKED_TYPES}
        return table
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def common_scalar(a: ScalarType, b: ScalarType) -> ScalarType:
    """The element type a binary operator computes in (DXC's usual arithmetic conversions).

    Floats win over integers and the wider float wins; among integers the wider
    wins and unsigned wins at equal width; bool alone stays bool and otherwise
    becomes the other operand's type (``int`` when both are bool in arithmetic
    is the caller's business).
    """
    if a == b:
        return a
    if a.kind == "float" and b.kind == "float":
        return a if a.bits >= b.bits else b
    if a.kind == "float" or b.kind == "float":
        return a if a.kind == "float" else b
    if a.kind == "bool":
        return b
    if b.kind == "bool":
        return a
    bits = max(a.bits, b.bits)
    kind = "uint" if "uint" in (a.kind, b.kind) and (a.bits == b.bits or
            (a.kind == "uint" and a.bits == bits) or (b.kind == "uint" and b.bits == bits)) else "int"
    return _scalar_of(kind, bits)


def _scalar_of(kind: str, bits: int) -> ScalarType:
    for scalar in (BOOL, INT, UINT, FLOAT, HALF, DOUBLE, INT16, UINT16, INT64, UINT64):
        if scalar.kind == kind and scalar.bits == bits:
            return scalar
    raise KeyError((kind, bits))


def scalar_of(kind: str, bits: int) -> ScalarType:
    return _scalar_of(kind, bits)


def element_of(t: Type) -> ScalarType | None:
    if isinstance(t, (ScalarType, VectorType, MatrixType)):
        return t.element
    return None


def with_element(t: Type, element: ScalarType) -> Type:
    """``t`` with its scalar element replaced (``float3`` -> ``uint3``)."""
    if isinstance(t, ScalarType):
        return element
    if isinstance(t, VectorType):
        return VectorType(element, t.size)
    if isinstance(t, MatrixType):
        return MatrixType(element, t.rows, t.cols)
    raise TypeError(f"{t} has no scalar element")


def size_in_bytes(t: Type) -> int:
    """Bytes of ``t`` tightly packed (structured buffers, groupshared memory)."""
    if isinstance(t, ScalarType):
        return 4 if t.kind == "bool" else t.bits // 8
    if isinstance(t, (VectorType, MatrixType)):
        return t.components * size_in_bytes(t.element)
    if isinstance(t, ArrayType):
        return (t.size or 0) * size_in_bytes(t.element)
    if isinstance(t, StructType):
        return sum(size_in_bytes(field_type) for _, field_type in t.fields)
    return 0
