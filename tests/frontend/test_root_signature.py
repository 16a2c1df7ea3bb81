"""``[RootSignature("...")]``: adjacent string literals, the root signature grammar
(frontend/root_signature.py), its diagnostics at the attribute, and the check that every
register the kernel binds is covered by a range of the right kind.

Error tests assert the message and its exact position (line, column).
"""

import os
import sys

import pytest

from shc.compiler.diagnostics import CompileError, Diagnostics
from shc.compiler.frontend import root_signature as rs
from shc.compiler.pipeline import Options, compile_source

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import errors, valid  # noqa: E402

# ------------------------------------------------------------- adjacent literals


def test_adjacent_string_literals_concatenate(fe):
    func = fe.decl('[shader("com" "pu"\n  "te")]\n[numthreads(1, 1, 1)] void main() {}')
    assert func.attributes[0].args == ["compute"]


def test_adjacent_literals_from_a_macro(fe):
    func = fe.decl('#define RS "RootFlags(0), " "CBV(b0)"\n[RootSignature(RS)]\n'
                   "[numthreads(1, 1, 1)] void main() {}")
    assert func.attributes[0].args == ["RootFlags(0), CBV(b0)"]


# ------------------------------------------------------------------- the grammar


def test_parse_every_parameter_kind():
    sig = rs.parse(
        "RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | DENY_PIXEL_SHADER_ROOT_ACCESS), "
        "RootConstants(num32BitConstants=4, b1, space = 2, visibility=SHADER_VISIBILITY_ALL), "
        "CBV(b0, flags=DATA_STATIC), SRV(t5, space=1), UAV(u2, visibility = SHADER_VISIBILITY_PIXEL), "
        "DescriptorTable(SRV(t0, numDescriptors = 2), UAV(u3, numDescriptors=unbounded, "
        "offset=DESCRIPTOR_RANGE_OFFSET_APPEND, flags=DESCRIPTORS_VOLATILE | DATA_VOLATILE), CBV(b4, offset=7)), "
        "DescriptorTable(Sampler(s1, space=3), visibility=SHADER_VISIBILITY_ALL), "
        "StaticSampler(s0, filter=FILTER_MIN_MAG_MIP_LINEAR, addressU=TEXTURE_ADDRESS_CLAMP, "
        "addressV = TEXTURE_ADDRESS_WRAP, addressW=TEXTURE_ADDRESS_BORDER, mipLODBias=-0.5f, maxAnisotropy=8, "
        "comparisonFunc=COMPARISON_LESS_EQUAL, borderColor=STATIC_BORDER_COLOR_OPAQUE_WHITE, minLOD=0.0, "
        "maxLOD=1e3, space=0)")
    assert sig.flags == ("ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT", "DENY_PIXEL_SHADER_ROOT_ACCESS")
    assert [(r.kind, r.start, r.count, r.space, r.visibility) for r in sig.ranges] == [
        ("b", 1, 1, 2, "ALL"),
        ("b", 0, 1, 0, "ALL"),
        ("t", 5, 1, 1, "ALL"),
        ("u", 2, 1, 0, "PIXEL"),
        ("t", 0, 2, 0, "ALL"),
        ("u", 3, None, 0, "ALL"),
        ("b", 4, 1, 0, "ALL"),
        ("s", 1, 1, 3, "ALL"),
        ("s", 0, 1, 0, "ALL"),
    ]


def test_keywords_are_case_insensitive_and_the_string_may_be_empty():
    sig = rs.parse("rootflags(0), descriptortable(srv(T0, NUMDESCRIPTORS=3)), cbv(B2)")
    assert [(r.kind, r.start, r.count) for r in sig.ranges] == [("t", 0, 3), ("b", 2, 1)]
    assert rs.parse("").ranges == [] and rs.parse("  ").ranges == []


@pytest.mark.parametrize("text, message", [
    ("CBV(b0), Foo(b1)", "unknown root parameter 'Foo'"),
    ("CBV(b0, size=4)", "unknown parameter 'size' in CBV"),
    ("SRV(u0)", "SRV needs a t register, not 'u0'"),
    ("CBV(bx)", "expected a register such as b0, not 'bx'"),
    ("RootConstants(b0)", "RootConstants needs num32BitConstants"),
    ("RootConstants(num32BitConstants=1)", "RootConstants needs a register (bN)"),
    ("CBV(b0", "expected ')' at the end of the root signature"),
    ("CBV b0)", "expected '(' after CBV, not 'b0'"),
    ("CBV(b0) UAV(u0)", "expected ',' between root parameters, not 'UAV'"),
    ("CBV(b0, space=-1)", "expected a number after 'space =', not '-'"),
    ("CBV(b0, visibility=SHADER_VISIBILITY_EVERYWHERE)", "unknown visibility 'SHADER_VISIBILITY_EVERYWHERE'"),
    ("DescriptorTable(SRV(t0), Sampler(s0))", "a descriptor table cannot mix samplers with CBV, SRV and UAV"),
    ("DescriptorTable(Texture(t0))", "unknown descriptor range 'Texture' in DescriptorTable"),
    ("StaticSampler(s0, filter=FILTER_BLURRY)", "unknown filter 'FILTER_BLURRY'"),
    ("CBV(b0, b1)", "CBV has more than one register"),
    ("CBV(b0, space=1, space=2)", "'space' is given twice in CBV"),
    ('CBV(b0) "', "unexpected character '\"'"),
])
def test_malformed_root_signatures(text, message):
    with pytest.raises(rs.RootSignatureError) as failure:
        rs.parse(text)
    assert failure.value.message == message


# --------------------------------------------------------- through the compiler

RS_MACRO = ('#define MyRS "RootConstants(b0, num32BitConstants=4), " \\\n'
            '             "DescriptorTable(SRV(t0, numDescriptors = 2), UAV(u0))"\n')
KERNEL = ("Texture2D<float> a : register(t0);\nTexture2D<float> b : register(t1);\n"
          "RWStructuredBuffer<float> o : register(u0);\ncbuffer C : register(b0) { float scale; }\n"
          "[RootSignature(MyRS)]\n[numthreads(8, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID)\n{\n"
          "    o[id.x] = (a.Load(int3(id.x, 0, 0)) + b.Load(int3(0, 0, 0))) * scale;\n}\n")


def build(text):
    diagnostics = Diagnostics()
    try:
        compile_source(text, "t.hlsl", Options(), diagnostics)
    except CompileError:
        pass
    return [(d.coord.line, d.coord.col, d.message) for d in diagnostics.items if d.severity == "error"]


def test_a_valid_root_signature_from_adjacent_literals_compiles():
    valid(RS_MACRO + KERNEL)
    assert build(RS_MACRO + KERNEL) == []


def test_a_kernel_without_the_attribute_is_unaffected():
    assert build(KERNEL.replace("[RootSignature(MyRS)]\n", "")) == []


def test_a_resource_outside_the_root_signature_is_an_error_at_its_declaration():
    text = RS_MACRO.replace("numDescriptors = 2", "numDescriptors = 1") + KERNEL
    assert build(text) == [
        (4, 18, "resource 'b' at register t1, space 0 is not bound in the root signature"),
    ]


def test_registers_assigned_by_the_compiler_are_checked_too():
    text = ('[RootSignature("UAV(u0)")]\n[numthreads(1, 1, 1)]\nvoid main()\n{\n}\n'
            .replace("{\n}", "{\n    o[0] = s[0];\n}"))
    text = "StructuredBuffer<uint> s;\nRWStructuredBuffer<uint> o;\n" + text
    assert build(text) == [
        (1, 24, "resource 's' at register t0, space 0 is not bound in the root signature"),
    ]


def test_the_range_must_be_visible_to_compute_and_of_the_right_space():
    text = ('RWStructuredBuffer<uint> o : register(u0, space1);\n'
            '[RootSignature("UAV(u0), DescriptorTable(UAV(u0, space=1), visibility=SHADER_VISIBILITY_PIXEL)")]\n'
            '[numthreads(1, 1, 1)]\nvoid main() { o[0] = 1; }\n')
    assert build(text) == [
        (1, 26, "resource 'o' at register u0, space 1 is not bound in the root signature"),
    ]


def test_resource_arrays_need_their_whole_range():
    text = ('Texture2D<float> t[4] : register(t2);\nRWStructuredBuffer<float> o : register(u0);\n'
            '[RootSignature("UAV(u0), DescriptorTable(SRV(t2, numDescriptors=3))")]\n'
            '[numthreads(1, 1, 1)]\nvoid main() { o[0] = t[3].Load(int3(0, 0, 0)); }\n')
    assert build(text) == [
        (1, 18, "resource 't' at registers t2-t5, space 0 is not bound in the root signature"),
    ]


def test_static_samplers_and_root_constants_cover_their_registers():
    text = ('Texture2D<float> t : register(t0);\nSamplerState smp : register(s0);\n'
            'RWStructuredBuffer<float> o : register(u0);\nuint k;\n'
            '[RootSignature("RootConstants(num32BitConstants=1, b0), UAV(u0), SRV(t0), '
            'StaticSampler(s0, filter = FILTER_MIN_MAG_MIP_POINT)")]\n'
            '[numthreads(1, 1, 1)]\nvoid main() { o[0] = t.SampleLevel(smp, float2(0, 0), 0) + k; }\n')
    assert build(text) == []


@pytest.mark.parametrize("signature, message", [
    ("CBV(b0), Bogus(t0)", "unknown root parameter 'Bogus'"),
    ("CBV(q0)", "expected a register such as b0, not 'q0'"),
    ("CBV(b0", "expected ')' at the end of the root signature"),
    ("DescriptorTable(SRV(t0)", "expected ')' at the end of the root signature"),
])
def test_a_malformed_root_signature_is_an_error_at_the_attribute(signature, message):
    text = (f'#define RS "{signature[:4]}" "{signature[4:]}"\n'
            "RWStructuredBuffer<uint> o : register(u0);\n"
            "[numthreads(1, 1, 1)]\n[RootSignature(RS)]\nvoid main() { o[0] = 1; }\n")
    assert errors(text) == [(4, 2, f"invalid root signature: {message}")]


def test_an_unterminated_string_is_an_error():
    text = ('RWStructuredBuffer<uint> o : register(u0);\n[numthreads(1, 1, 1)]\n'
            '[RootSignature("UAV(u0))]\nvoid main() { o[0] = 1; }\n')
    found = errors(text)
    assert found and found[0][:2] == (3, 16)
    assert found[0][2] == "missing terminating '\"' character"


def test_the_root_signature_needs_one_string():
    text = ('RWStructuredBuffer<uint> o : register(u0);\n[numthreads(1, 1, 1)]\n'
            '[RootSignature(3)]\nvoid main() { o[0] = 1; }\n')
    assert errors(text) == [(3, 2, "RootSignature needs one string: [RootSignature(\"...\")]")]
