"""Root signatures: the string of ``[RootSignature("...")]``, parsed and checked.

The grammar is D3D12's ("Specifying Root Signatures in HLSL"); keywords and enumerated
values are case-insensitive, as DXC reads them::

    signature   := [parameter {"," parameter}]
    parameter   := RootFlags "(" flags ")"
                 | RootConstants "(" args ")"            num32BitConstants=, bN, space=, visibility=
                 | (CBV | SRV | UAV) "(" args ")"        register, space=, visibility=, flags=
                 | DescriptorTable "(" [item {"," item}] ")"   item: a range or visibility=
                 | StaticSampler "(" args ")"            sN, filter=, addressU/V/W=, mipLODBias=, ...
    range       := (CBV | SRV | UAV | Sampler) "(" args ")"   register, numDescriptors=, space=,
                                                               offset=, flags=
    args        := arg {"," arg}      arg: a register (b0, t3, u1, s2) or name "=" value
    flags       := "0" | NAME {"|" NAME}

A small tokenizer and one recursive-descent function per rule; the first problem raises
``RootSignatureError`` with a message naming it. What the compiler needs from the result is
the register ranges (``RootSignature.ranges``) and ``covers``: whether one range of the right
kind, space and visibility holds a resource's registers, as DXC's validator asks (a compute
shader sees only ranges visible to all stages).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class RootSignatureError(Exception):
    """A malformed root signature; ``message`` says what is wrong."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Range:
    """Registers ``kind`` ``start`` .. ``start + count - 1`` in ``space`` (count None: unbounded)."""

    kind: str  # "b", "t", "u" or "s"
    start: int
    count: int | None
    space: int
    visibility: str  # "ALL", "PIXEL", ... (SHADER_VISIBILITY_ removed)


@dataclass(eq=False)  # one of a kind: compared by identity
class RootSignature:
    """A parsed root signature: its flags and its descriptor ranges."""

    flags: tuple[str, ...] = ()
    ranges: list[Range] = field(default_factory=list)

    def covers(self, kind: str, start: int, count: int | None, space: int) -> bool:
        """Whether one range visible to a compute shader holds registers ``start`` .. (``count`` of them)."""
        for candidate in self.ranges:
            if (candidate.kind, candidate.space, candidate.visibility) != (kind, space, "ALL"):
                continue
            if candidate.start > start:
                continue
            if candidate.count is None:
                return True
            if count is not None and start + count <= candidate.start + candidate.count:
                return True
        return False


# ------------------------------------------------------------------ vocabulary
VISIBILITIES = {"ALL", "VERTEX", "HULL", "DOMAIN", "GEOMETRY", "PIXEL", "AMPLIFICATION", "MESH"}
ROOT_FLAGS = {
    "ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT", "DENY_VERTEX_SHADER_ROOT_ACCESS", "DENY_HULL_SHADER_ROOT_ACCESS",
    "DENY_DOMAIN_SHADER_ROOT_ACCESS", "DENY_GEOMETRY_SHADER_ROOT_ACCESS", "DENY_PIXEL_SHADER_ROOT_ACCESS",
    "DENY_AMPLIFICATION_SHADER_ROOT_ACCESS", "DENY_MESH_SHADER_ROOT_ACCESS", "ALLOW_STREAM_OUTPUT",
    "LOCAL_ROOT_SIGNATURE", "CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED", "SAMPLER_HEAP_DIRECTLY_INDEXED",
}
DESCRIPTOR_FLAGS = {"DATA_VOLATILE", "DATA_STATIC_WHILE_SET_AT_EXECUTE", "DATA_STATIC"}
RANGE_FLAGS = DESCRIPTOR_FLAGS | {"DESCRIPTORS_VOLATILE", "DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS"}
_FILTER_BASES = (
    "MIN_MAG_MIP_POINT", "MIN_MAG_POINT_MIP_LINEAR", "MIN_POINT_MAG_LINEAR_MIP_POINT",
    "MIN_POINT_MAG_MIP_LINEAR", "MIN_LINEAR_MAG_MIP_POINT", "MIN_LINEAR_MAG_POINT_MIP_LINEAR",
    "MIN_MAG_LINEAR_MIP_POINT", "MIN_MAG_MIP_LINEAR", "ANISOTROPIC",
)
FILTERS = {f"FILTER_{reduction}{base}" for reduction in ("", "COMPARISON_", "MINIMUM_", "MAXIMUM_")
           for base in _FILTER_BASES}
ADDRESS_MODES = {f"TEXTURE_ADDRESS_{mode}" for mode in ("WRAP", "MIRROR", "CLAMP", "BORDER", "MIRROR_ONCE")}
COMPARISONS = {f"COMPARISON_{name}" for name in (
    "NEVER", "LESS", "EQUAL", "LESS_EQUAL", "GREATER", "NOT_EQUAL", "GREATER_EQUAL", "ALWAYS")}
BORDER_COLORS = {f"STATIC_BORDER_COLOR_{name}" for name in (
    "TRANSPARENT_BLACK", "OPAQUE_BLACK", "OPAQUE_WHITE", "OPAQUE_BLACK_UINT", "OPAQUE_WHITE_UINT")}

# The register class each parameter or range binds.
REGISTER_KINDS = {"rootconstants": "b", "cbv": "b", "srv": "t", "uav": "u", "sampler": "s", "staticsampler": "s"}
SPELLING = {"rootconstants": "RootConstants", "cbv": "CBV", "srv": "SRV", "uav": "UAV", "sampler": "Sampler",
            "staticsampler": "StaticSampler", "descriptortable": "DescriptorTable", "rootflags": "RootFlags"}

# ------------------------------------------------------------------ tokens
_TOKEN = re.compile(r"\s*(?:(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fF]?)"
                    r"|(?P<punct>[(),=|+-]))")
_REGISTER = re.compile(r"([bBtTuUsS])(\d+)")
_END = ""  # the token after the last one


def tokenize(text: str) -> list[str]:
    tokens, position = [], 0
    while text[position:].strip():
        match = _TOKEN.match(text, position)
        if match is None:
            bad = text[position:].lstrip()[0]
            raise RootSignatureError(f"unexpected character '{bad}'")
        tokens.append(match.group(match.lastgroup))
        position = match.end()
    return tokens


def _shown(token: str) -> str:
    return f"'{token}'" if token else "the end"


# ------------------------------------------------------------------ the parser
class _Parser:
    def __init__(self, text: str):
        self.tokens = tokenize(text)
        self.position = 0
        self.signature = RootSignature()

    # token access
    def peek(self, ahead: int = 0) -> str:
        index = self.position + ahead
        return self.tokens[index] if index < len(self.tokens) else _END

    def take(self) -> str:
        token = self.peek()
        self.position += 1
        return token

    def expect(self, token: str, where: str) -> None:
        found = self.take()
        if found == token:
            return
        if found == _END:
            raise RootSignatureError(f"expected '{token}' at the end of the root signature")
        raise RootSignatureError(f"expected '{token}' {where}, not '{found}'")

    # signature := [parameter {"," parameter}]
    def parse(self) -> RootSignature:
        while self.peek() != _END:
            self.parameter()
            if self.peek() == _END:
                break
            if self.peek() != ",":
                raise RootSignatureError(f"expected ',' between root parameters, not '{self.peek()}'")
            self.take()
        return self.signature

    def parameter(self) -> None:
        name = self.take()
        key = name.lower()
        if key not in ("rootflags", "rootconstants", "cbv", "srv", "uav", "descriptortable", "staticsampler"):
            raise RootSignatureError(f"unknown root parameter '{name}'")
        self.expect("(", f"after {SPELLING[key]}")
        if key == "rootflags":
            self.signature.flags = self.flags(ROOT_FLAGS, "RootFlags")
            self.expect(")", "after the flags of RootFlags")
        elif key == "descriptortable":
            self.table()
        else:
            self.single(key)

    def single(self, key: str) -> None:
        """RootConstants, a root CBV/SRV/UAV or a StaticSampler: one register's range."""
        values = {
            "rootconstants": {"num32bitconstants": self.number, "space": self.number,
                              "visibility": self.visibility},
            "staticsampler": {"filter": self.choice(FILTERS, "filter"), "addressu": self.choice(ADDRESS_MODES, "address mode"),
                              "addressv": self.choice(ADDRESS_MODES, "address mode"),
                              "addressw": self.choice(ADDRESS_MODES, "address mode"),
                              "miplodbias": self.real, "maxanisotropy": self.number,
                              "comparisonfunc": self.choice(COMPARISONS, "comparison function"),
                              "bordercolor": self.choice(BORDER_COLORS, "border color"),
                              "minlod": self.real, "maxlod": self.real, "space": self.number,
                              "visibility": self.visibility},
        }.get(key, {"space": self.number, "visibility": self.visibility,
                    "flags": lambda what: self.flags(DESCRIPTOR_FLAGS, SPELLING[key])})
        register, args = self.arguments(key, values)
        if key == "rootconstants" and "num32bitconstants" not in args:
            raise RootSignatureError("RootConstants needs num32BitConstants")
        self.signature.ranges.append(Range(REGISTER_KINDS[key], register, 1, args.get("space", 0),
                                           args.get("visibility", "ALL")))

    def table(self) -> None:
        """DescriptorTable "(" [item {"," item}] ")": ranges, and one visibility for them all."""
        ranges, visibility = [], "ALL"
        while self.peek() != ")":
            name = self.peek()
            if name.lower() == "visibility" and self.peek(1) == "=":
                self.take()
                self.take()
                visibility = self.visibility("visibility =")
            elif self.peek(1) == "(":
                ranges.append(self.table_range())
            else:
                raise RootSignatureError(f"expected a descriptor range or visibility in DescriptorTable, "
                                         f"not {_shown(name)}")
            if self.peek() == ",":
                self.take()
            elif self.peek() != ")":
                self.expect(")", "after the ranges of DescriptorTable")
        self.take()
        if len({kind == "s" for kind, *_ in ranges}) > 1:
            raise RootSignatureError("a descriptor table cannot mix samplers with CBV, SRV and UAV")
        for kind, start, count, space in ranges:
            self.signature.ranges.append(Range(kind, start, count, space, visibility))

    def table_range(self) -> tuple[str, int, int | None, int]:
        name = self.take()
        key = name.lower()
        if key not in ("cbv", "srv", "uav", "sampler"):
            raise RootSignatureError(f"unknown descriptor range '{name}' in DescriptorTable")
        self.take()  # "(" (table() looked ahead)
        values = {"numdescriptors": self.count, "space": self.number, "offset": self.offset,
                  "flags": lambda what: self.flags(RANGE_FLAGS, SPELLING[key])}
        register, args = self.arguments(key, values)
        return REGISTER_KINDS[key], register, args.get("numdescriptors", 1), args.get("space", 0)

    # args := arg {"," arg} ")"
    def arguments(self, key: str, values: dict) -> tuple[int, dict]:
        owner, kind = SPELLING[key], REGISTER_KINDS[key]
        register, args = None, {}
        while True:
            token = self.take()
            if self.peek() == "=":
                self.take()
                name = token.lower()
                if name not in values:
                    raise RootSignatureError(f"unknown parameter '{token}' in {owner}")
                if name in args:
                    raise RootSignatureError(f"'{token}' is given twice in {owner}")
                args[name] = values[name](f"{token} =")
            else:
                if register is not None:
                    raise RootSignatureError(f"{owner} has more than one register")
                register = self.register(token, kind, owner)
            if self.peek() == ")":
                self.take()
                break
            if self.peek() == _END:
                raise RootSignatureError("expected ')' at the end of the root signature")
            self.expect(",", f"or ')' in {owner}")
        if register is None:
            raise RootSignatureError(f"{owner} needs a register ({kind}N)")
        return register, args

    # values
    def register(self, token: str, kind: str, owner: str) -> int:
        match = _REGISTER.fullmatch(token)
        if match is None:
            raise RootSignatureError(f"expected a register such as {kind}0, not {_shown(token)}")
        if match[1].lower() != kind:
            raise RootSignatureError(f"{owner} needs a {kind} register, not '{token}'")
        return int(match[2])

    def number(self, what: str) -> int:
        token = self.take()
        if not token.isdigit():
            raise RootSignatureError(f"expected a number after '{what}', not {_shown(token)}")
        return int(token)

    def count(self, what: str) -> int | None:
        if self.peek().lower() == "unbounded":
            self.take()
            return None
        return self.number(what)

    def offset(self, what: str) -> int | None:
        if self.peek().upper() == "DESCRIPTOR_RANGE_OFFSET_APPEND":
            self.take()
            return None
        return self.number(what)

    def real(self, what: str) -> float:
        sign = -1.0 if self.peek() == "-" else 1.0
        if self.peek() in ("-", "+"):
            self.take()
        token = self.take()
        try:
            return sign * float(token.rstrip("fF"))
        except ValueError:
            raise RootSignatureError(f"expected a number after '{what}', not {_shown(token)}") from None

    def choice(self, names: set[str], noun: str):
        def value(what: str) -> str:
            token = self.take()
            if token.upper() not in names:
                raise RootSignatureError(f"unknown {noun} {_shown(token)}")
            return token.upper()
        return value

    def visibility(self, what: str) -> str:
        token = self.take()
        name = token.upper()
        if not name.startswith("SHADER_VISIBILITY_") or name[len("SHADER_VISIBILITY_"):] not in VISIBILITIES:
            raise RootSignatureError(f"unknown visibility {_shown(token)}")
        return name[len("SHADER_VISIBILITY_"):]

    def flags(self, names: set[str], what: str) -> tuple[str, ...]:
        """ "0" or NAME {"|" NAME}."""
        if self.peek() == "0":
            self.take()
            return ()
        chosen = [self.take()]
        while self.peek() == "|":
            self.take()
            chosen.append(self.take())
        for flag in chosen:
            if flag.upper() not in names:
                raise RootSignatureError(f"unknown flag {_shown(flag)} in {what}")
        return tuple(flag.upper() for flag in chosen)


def parse(text: str) -> RootSignature:
    """The root signature ``text`` describes; RootSignatureError says what is malformed."""
    return _Parser(text).parse()


def register_text(kind: str, start: int, count: int | None) -> str:
    """``t3``, ``registers t2-t5`` or ``registers t2 and up`` for a message."""
    if count == 1:
        return f"register {kind}{start}"
    if count is None:
        return f"registers {kind}{start} and up"
    return f"registers {kind}{start}-{kind}{start + count - 1}"
