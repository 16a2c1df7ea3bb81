"""The language a program is checked as: the shader model (``-T cs_6_x``) and HLSL version (``-HV``).

DXC gates newer features by shader model; shc checks the same gates, at the construct's
position, so a shader that passes ``shc check -T cs_6_5`` would pass DXC's too::

    [WaveSize]                      6.6    64-bit atomics                  6.6
    pack_*/unpack_*, IsHelperLane   6.6    ResourceDescriptorHeap          6.6
    WaveMatch, WaveMultiPrefix*     6.5    dot4add_*, dot2add              6.4
    16-bit types                    6.2    wave and quad operations        6.0

Below 6.2 there are no 16-bit types, as in DXC without ``-enable-16bit-types``: the
explicit ``float16_t``/``int16_t``/``uint16_t`` are errors and the minimum-precision
names (``half``, ``min16float``, ``min16int``...) are their 32-bit types.

The HLSL version decides what ``?:``, ``&&`` and ``||`` mean. HLSL 2021 (the default):
``&&``/``||`` and a scalar-condition ``?:`` short-circuit and take scalars only; the
element-wise forms are the intrinsics ``and``, ``or`` and ``select``. HLSL 2018: all
three are element-wise on vectors and always evaluate both operands, and ``and``, ``or``
and ``select`` do not exist.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the type tables are imported where they are used: the command line's flag checks stay light
    from . import hlsl_types as T

SHADER_MODELS = tuple((6, minor) for minor in range(9))  # cs_6_0 .. cs_6_8
DEFAULT_SHADER_MODEL = (6, 6)
HLSL_VERSIONS = (2018, 2021)
DEFAULT_HLSL_VERSION = 2021

SIXTEEN_BIT_MODEL = (6, 2)
# Intrinsics by the shader model they need, as DXC's table has them. A name shc does not
# implement yet is reported with the model it needs when -T is below it, else as undeclared.
INTRINSIC_MODELS = {
    **{name: (6, 6) for name in ("pack_u8", "pack_s8", "pack_clamp_u8", "pack_clamp_s8", "unpack_u8u16",
                                 "unpack_u8u32", "unpack_s8s16", "unpack_s8s32", "IsHelperLane")},
    **{name: (6, 5) for name in ("WaveMatch", "WaveMultiPrefixSum", "WaveMultiPrefixProduct",
                                 "WaveMultiPrefixCountBits", "WaveMultiPrefixBitAnd", "WaveMultiPrefixBitOr",
                                 "WaveMultiPrefixBitXor")},
    **{name: (6, 4) for name in ("dot4add_u8packed", "dot4add_i8packed", "dot2add")},
}
GROUP_MODELS = {"wave": (6, 0), "quad": (6, 0)}
WAVE_SIZE_MODEL = (6, 6)
ATOMIC64_MODEL = (6, 6)
DESCRIPTOR_HEAP_MODEL = (6, 6)
DESCRIPTOR_HEAPS = ("ResourceDescriptorHeap", "SamplerDescriptorHeap")
HLSL2021_INTRINSICS = frozenset({"and", "or", "select"})
_EXPLICIT_16BIT = re.compile(r"(float|int|uint)16_t")
_PROFILE = re.compile(r"cs_(\d+)_(\d+)")


class ProfileError(ValueError):
    """A ``-T`` or ``-HV`` value shc cannot compile for; the message says why."""


@dataclass(frozen=True)
class Language:
    shader_model: tuple[int, int] = DEFAULT_SHADER_MODEL
    hlsl_version: int = DEFAULT_HLSL_VERSION

    @property
    def profile(self) -> str:
        return f"cs_{self.shader_model[0]}_{self.shader_model[1]}"

    @property
    def has_16bit_types(self) -> bool:
        return self.shader_model >= SIXTEEN_BIT_MODEL


def parse_profile(text: str) -> tuple[int, int]:
    """``cs_6_6`` as (6, 6); another stage's profile or an unknown model raises ``ProfileError``."""
    match = _PROFILE.fullmatch(text)
    if match is None:
        stage = text.split("_")[0]
        if re.fullmatch(r"(ps|vs|gs|hs|ds|ms|as|lib)_\d+_(\d+|x)", text):
            raise ProfileError(f"profile '{text}' is not a compute profile: shc compiles compute shaders "
                               f"('{stage}' shaders are not supported); use cs_6_0 to cs_6_8")
        raise ProfileError(f"unknown profile '{text}' (expected cs_6_0 to cs_6_8)")
    model = (int(match.group(1)), int(match.group(2)))
    if model not in SHADER_MODELS:
        raise ProfileError(f"unknown shader model {model[0]}.{model[1]} in '{text}' (expected cs_6_0 to cs_6_8)")
    return model


def parse_hlsl_version(text: str) -> int:
    if not text.isdigit() or int(text) not in HLSL_VERSIONS:
        raise ProfileError(f"invalid -HV value '{text}' (expected 2018 or 2021)")
    return int(text)


def _model_text(model: tuple[int, int]) -> str:
    return f"{model[0]}.{model[1]}"


def without_16bit_types(types: dict[str, T.Type]) -> dict[str, T.Type]:
    """``types`` as below shader model 6.2: minimum-precision names become their 32-bit types
    and the explicit 16-bit names are removed (``LanguageRules.missing_type`` explains them)."""
    from . import hlsl_types as T

    wide = {"float": T.FLOAT, "int": T.INT, "uint": T.UINT}
    result = {}
    for name, t in types.items():
        element = getattr(t, "element", None)
        if element is None or element.bits != 16:
            result[name] = t
        elif not _EXPLICIT_16BIT.match(name):
            result[name] = T.with_element(t, wide[element.kind])
    return result


class LanguageRules:
    """Mixed into the semantic checker: the shader-model gates and the HLSL-version rules."""

    language: Language

    def require_model(self, what: str, needed: tuple[int, int], coord) -> bool:
        """Report ``what`` if the shader model is below ``needed``; True if it is allowed."""
        if self.language.shader_model >= needed:
            return True
        self.error(f"{what} requires shader model {_model_text(needed)} or later "
                   f"(-T {self.language.profile} was given)", coord)
        return False

    def missing_type(self, name: str, coord) -> bool:
        """Report a 16-bit type name below shader model 6.2; True if ``name`` was one."""
        from . import hlsl_types as T

        if self.language.has_16bit_types or not _EXPLICIT_16BIT.match(name) or name not in T.BUILTIN_TYPES:
            return False
        return not self.require_model(f"16-bit type '{name}'", SIXTEEN_BIT_MODEL, coord)

    def intrinsic_declared(self, name: str) -> bool:
        """HLSL 2018 has no ``and``, ``or`` or ``select``."""
        return not (self.language.hlsl_version < 2021 and name in HLSL2021_INTRINSICS)

    def missing_name_gated(self, name: str, coord) -> bool:
        """A name shc does not declare that DXC gates by model: report the gate if it applies."""
        needed = INTRINSIC_MODELS.get(name) or (DESCRIPTOR_HEAP_MODEL if name in DESCRIPTOR_HEAPS else None)
        if needed is not None and not self.require_model(f"'{name}'", needed, coord):
            return True
        if name in DESCRIPTOR_HEAPS:  # descriptor_heaps.py handles the supported form
            self.error(f"'{name}[i]' must initialize a local {'sampler' if name[0] == 'S' else 'resource'} "
                       f"variable, which gives it its type ('RWStructuredBuffer<uint> b = {name}[i];')", coord)
            return True
        return False

    def check_call_model(self, name: str, resolution, coord) -> None:
        needed = INTRINSIC_MODELS.get(name) or GROUP_MODELS.get(resolution.group)
        if needed is not None:
            self.require_model(f"'{name}'", needed, coord)
        if resolution.group == "atomic" and any(getattr(t, "bits", 0) == 64 for t in resolution.param_types):
            self.require_model(f"64-bit atomic '{name}'", ATOMIC64_MODEL, coord)

    def check_wave_size_model(self, coord) -> None:
        self.require_model("[WaveSize]", WAVE_SIZE_MODEL, coord)

    def vector_logical_allowed(self) -> bool:
        """``&&``/``||`` on vectors and a vector ``?:`` condition: element-wise in HLSL 2018,
        an error in 2021 (``and``/``or``/``select`` are the element-wise forms)."""
        return self.language.hlsl_version < 2021
