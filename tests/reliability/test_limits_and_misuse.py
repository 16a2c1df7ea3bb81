"""Hostile and mistaken input reaches a clear error, fast: sizes and nesting past shc's
limits, `shc check` running every check that can reject a program, `shc run` misuse caught
before the dispatch, and `Kernel.dispatch` options that never collide with shader names.

Each hostile compile runs in a subprocess with a time limit, so a hang or a crash fails the
test instead of the suite."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import shc

SCRIPT = Path(sys.executable).with_name("shc")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "shc.compiler.cli"]
ROOT = Path(__file__).resolve().parents[2]
LIMIT_SECONDS = 10


def shc_cli(*args, cwd=None):
    started = time.monotonic()
    result = subprocess.run(COMMAND + [str(a) for a in args], capture_output=True, text=True, cwd=cwd,
                            timeout=LIMIT_SECONDS * 3)
    result.seconds = time.monotonic() - started
    return result


def kernel(body: str, globals_: str = "RWStructuredBuffer<uint> o : register(u0);", threads: int = 64) -> str:
    return (globals_ + f"\n[numthreads({threads}, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {{\n"
            + textwrap.indent(textwrap.dedent(body), "    ") + "\n}\n")


def compile_in_child(source: str) -> subprocess.CompletedProcess:
    """``shc.compile(source)`` in a fresh process: prints OK or the compile error's text."""
    script = ("import sys, shc\n"
              "try:\n    shc.compile(sys.stdin.read())\nexcept shc.KernelCompileError as e:\n"
              "    print(e); sys.exit(1)\nprint('OK')\n")
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-c", script], input=source, capture_output=True, text=True,
                            timeout=LIMIT_SECONDS * 3)
    result.seconds = time.monotonic() - started
    return result


# -- sizes ------------------------------------------------------------------------------

SIZE_CASES = {
    "array_of_2_to_the_32": (kernel("uint a[4294967296]; a[id.x] = 1; o[0] = a[id.x];"),
                             "4:12:", "array is too large (4294967296 elements of 4 bytes; the limit is 2 GiB)"),
    "forty_dimensions": (kernel("uint a" + "[2]" * 40 + "; o[0] = 1;"), "4:45:",
                         "array is too large (536870912 elements of 4 bytes"),
    "typedef_array": ("typedef uint Big[65536][65536];\n" + kernel("Big b; o[0] = 1;"),
                      "1:18:", "array is too large (4294967296 elements of 4 bytes"),
    "resource_array": ("Texture2D<float> t[4294967295];\n" + kernel("o[0] = t[0].Load(int3(0, 0, 0));"),
                       "1:20:", "resource array is too large (4294967295 elements; the limit is 1,000,000)"),
    "scratch_per_thread": (kernel("uint a[2097152]; a[id.x] = id.x; o[id.x] = a[o[0]];"),
                           "4:10:", "local arrays need 8388608 bytes of scratch per thread here; the limit is 65536"),
}


@pytest.mark.parametrize("name", sorted(SIZE_CASES))
def test_sizes_past_the_limits_are_positioned_errors(name):
    source, line, message = SIZE_CASES[name]
    result = compile_in_child(source)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"<source>:{line}" in result.stdout and message in result.stdout, result.stdout
    assert "Traceback" not in result.stderr
    assert result.seconds < LIMIT_SECONDS


def test_arrays_within_the_limits_still_run():
    source = kernel("uint a[4096]; a[id.x] = id.x * 3; o[id.x] = a[id.x] + a[0];")
    out = np.zeros(64, np.uint32)
    shc.compile(source).dispatch((1, 1, 1), o=out)
    assert out.tolist() == [3 * i for i in range(64)]


# -- nesting ----------------------------------------------------------------------------

def test_deep_nesting_compiles_through_the_api():
    """1000 nested blocks and 1000 nested casts used to pass `shc compile` and fail in the API's
    layout walk with RecursionError: every walk is under the one nesting guard now."""
    blocks = kernel("{" * 1000 + "o[0] = 7;" + "}" * 1000, threads=1)
    casts = kernel("o[0] = " + "(uint)" * 1000 + "7;", threads=1)
    for source in (blocks, casts):
        out = np.zeros(1, np.uint32)
        shc.compile(source).dispatch((1, 1, 1), o=out)
        assert out[0] == 7


def test_nesting_past_the_guard_is_a_diagnostic_not_a_recursion_error():
    result = compile_in_child(kernel("o[0] = " + "(uint)" * 20000 + "1;", threads=1))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "error:" in result.stdout and "Traceback" not in result.stderr
    assert result.seconds < LIMIT_SECONDS


@pytest.mark.parametrize("depth, refused", [(128, False), (129, True)])
def test_control_flow_nesting_limit(depth, refused):
    loops = "".join(f"for (uint i{k} = 0; i{k} < 1; i{k}++)\n" for k in range(depth - 1))
    result = compile_in_child(kernel(loops + "if (id.x == 0) o[0] = 1;", threads=1))
    assert result.returncode == (1 if refused else 0), result.stdout + result.stderr
    if refused:
        assert "<source>:132:5: error: control flow nested too deeply (the limit is 128" in result.stdout
    assert result.seconds < LIMIT_SECONDS * 3


def test_four_hundred_nested_loops_are_refused_at_once():
    loops = "".join(f"for (uint i{k} = 0; i{k} < 1; i{k}++)\n" for k in range(400))
    result = compile_in_child(kernel(loops + "o[0] = 1;", threads=1))
    assert result.returncode == 1
    assert "<source>:132:5: error: control flow nested too deeply" in result.stdout
    assert result.seconds < LIMIT_SECONDS


def test_exponential_inlining_is_refused_where_it_crosses_the_limit():
    """Each function calls the one below twice: forty levels would inline 2**40 calls."""
    functions = ["uint f0(uint x) { return x + 1; }"]
    functions += [f"uint f{k}(uint x) {{ return f{k - 1}(x) + f{k - 1}(x ^ 1); }}" for k in range(1, 41)]
    source = "\n".join(functions) + "\n" + kernel("o[0] = f40(o[1]);", threads=1)
    result = compile_in_child(source)
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [line for line in result.stdout.splitlines() if "error:" in line]
    assert errors == ["<source>:17:6: error: inlining 'f16' takes 131,070 calls; the limit is 65,536"]
    assert result.seconds < LIMIT_SECONDS


NOT_ON_A_FLOAT = """\
resource @o RWStructuredBuffer<float> u0 space0
func @main numthreads(1, 1, 1) wave32 {
^entry:
  %0 = const uint {value=0}                  ; kernel.hlsl:4:7
  %1 = buffer_load float %0 {resource="o"}   ; kernel.hlsl:4:12
  %2 = not float %1                          ; kernel.hlsl:5:9
  buffer_store %0, %2 {resource="o"}         ; kernel.hlsl:5:3
  ret                                        ; kernel.hlsl:3:6
}
"""


def test_what_the_rdna2_back_end_cannot_select_is_an_error_not_an_internal_one(tmp_path):
    """The front end never makes ``not`` of a float; IR text can, and the selector's refusal is
    a positioned error (diagnostics.Unsupported), exit 1, not an internal compiler error."""
    path = tmp_path / "not_float.ir"
    path.write_text(NOT_ON_A_FLOAT)
    result = shc_cli("compile", path, "-p", "simplify", "--emit", "rdna2")
    assert result.returncode == 1, result.stderr
    assert "kernel.hlsl:5:9: error: the RDNA2 back end does not support 'not' on floats" in result.stderr
    assert "internal compiler error" not in result.stderr


@pytest.mark.parametrize("expression, instruction", [("-a", "v_add_f64"), ("a * a", "v_mul_f64"), ("a / 3.0", "v_div_fixup_f64")])
def test_double_arithmetic_once_refused_is_selected(tmp_path, expression, instruction):
    path = tmp_path / "f64.hlsl"
    path.write_text(kernel(f"double a = o[id.x];\no[id.x] = {expression} + 1.0;", "RWStructuredBuffer<double> o : register(u0);"))
    result = shc_cli("compile", path, "--target", "rdna2")
    assert result.returncode == 0, result.stderr
    assert instruction in result.stdout


# -- shc check runs every check that can reject a program -----------------------------

def test_check_rejects_a_barrier_in_divergent_flow(tmp_path):
    path = tmp_path / "barrier.hlsl"
    path.write_text(kernel("if (id.x & 1) GroupMemoryBarrierWithGroupSync();\no[id.x] = 1;"))
    result = shc_cli("check", path)
    assert result.returncode == 1
    assert f"{path}:4:19: error: barrier in divergent control flow" in result.stderr


def test_check_prints_uniformity_warnings_and_passes(tmp_path):
    path = tmp_path / "wave_uniform.hlsl"
    path.write_text(kernel("if (WaveReadLaneFirst(id.x) == 0) GroupMemoryBarrierWithGroupSync();\no[id.x] = 1;"))
    result = shc_cli("check", path)
    assert result.returncode == 0, result.stderr
    assert "warning:" in result.stderr


# -- the CLI ----------------------------------------------------------------------------

def test_print_after_an_unknown_pass_lists_the_passes():
    result = shc_cli("compile", ROOT / "samples" / "prefix_sum.hlsl", "--print-after", "bogus")
    assert result.returncode == 1
    assert "shc: error: unknown pass 'bogus' for --print-after (passes: lower, constant-fold" in result.stderr
    assert result.stdout == ""


def test_run_checks_the_group_count_before_allocating(tmp_path):
    result = shc_cli("run", ROOT / "samples" / "compaction.hlsl", "--groups", "99999999999",
                     "--output", f"survivors={tmp_path / 's.npy'}")
    assert result.returncode == 1
    assert "shc: error: --groups 99999999999: at most 65535 groups per dimension" in result.stderr


def test_run_refuses_a_zeroed_output_larger_than_a_buffer(tmp_path):
    result = shc_cli("run", ROOT / "samples" / "compaction.hlsl", "--groups", "65535,65535,1",
                     "--output", f"survivors={tmp_path / 's.npy'}")
    assert result.returncode == 1
    assert "a buffer holds at most 2,147,483,647" in result.stderr
    assert result.seconds < LIMIT_SECONDS


@pytest.mark.parametrize("where, reason", [("missing/out.npy", "no directory"), ("adir", "it is a directory")])
def test_run_checks_output_paths_before_the_dispatch(tmp_path, where, reason):
    (tmp_path / "adir.npy").mkdir()
    data = tmp_path / "in.npy"
    np.save(data, np.arange(256, dtype=np.float32))
    result = shc_cli("run", ROOT / "samples" / "compaction.hlsl", "--groups", "1",
                     "--input", f"values={data}", "--output", f"survivors={tmp_path / where}",
                     "--set", "count=200", "--set", "threshold=0.5")
    assert result.returncode == 1
    assert "cannot write --output survivors=" in result.stderr and reason in result.stderr
    assert "dispatch" not in result.stdout  # nothing ran


# -- the Python API ---------------------------------------------------------------------

NAMED_LIKE_OPTIONS = kernel("o[id.x] = timeout + threads * 10 + u * 100;",
                            "RWStructuredBuffer<uint> o : register(u0);\ncbuffer C { uint timeout; uint threads; uint u; }",
                            threads=4)


def test_shader_names_equal_to_dispatch_options_go_in_the_bindings_mapping():
    k = shc.compile(NAMED_LIKE_OPTIONS)
    out = np.zeros(4, np.uint32)
    k.dispatch((1, 1, 1), {"timeout": 1, "threads": 2}, o=out, u=3, timeout=5.0)
    assert out.tolist() == [321] * 4
    with pytest.raises(shc.BindingError, match=r"missing constant 'timeout'.*dispatch\(groups, \{'timeout': \.\.\.\}\)"):
        k.dispatch((1, 1, 1), o=out, u=3)
    with pytest.raises(shc.BindingError, match="given both in the bindings mapping and as a keyword"):
        k.dispatch((1, 1, 1), {"u": 1, "timeout": 1, "threads": 2}, o=out, u=3)


@pytest.mark.parametrize("value, message", [(2**40, "1099511627776 is out of range (0..4294967295)"),
                                            (-1, "-1 is out of range (0..4294967295)"),
                                            (1.5, "expected integers")])
def test_out_of_range_constants_are_errors(value, message):
    k = shc.compile(NAMED_LIKE_OPTIONS)
    out = np.zeros(4, np.uint32)
    with pytest.raises(shc.BindingError, match=re.escape(f"'u' is uint: {message}")):
        k.dispatch((1, 1, 1), {"timeout": 1, "threads": 2}, o=out, u=value)
    assert not out.any()


@pytest.mark.parametrize("timeout", [float("nan"), float("inf"), "1", -1, 0, True])
def test_dispatch_validates_its_timeout(timeout):
    k = shc.compile(NAMED_LIKE_OPTIONS)
    with pytest.raises(ValueError, match="timeout must be positive seconds"):
        k.dispatch((1, 1, 1), {"timeout": 1, "threads": 2}, o=np.zeros(4, np.uint32), u=3, timeout=timeout)


# -- found by the fuzzer ----------------------------------------------------------------

@pytest.mark.parametrize("declaration, what", [("float4 v = 1;", "index 4 is out of range for a vector of 4"),
                                               ("float v[4] = {1, 2, 3, 4};", "index 4 is out of range for an array of 4"),
                                               ("float2x4 v = 1;", "index 2 is out of range for a matrix of 2")])
def test_an_unrolled_counter_past_the_end_is_an_error_not_an_internal_one(declaration, what):
    """The counter of an unrolled loop is a constant only in lowering: it gets the checker's range
    rule there (it reached the RDNA2 back end as an IndexError)."""
    source = kernel(f"{declaration}\nfloat s = 0;\n[unroll] for (int k = 0; k < 6; ++k) {{ s += v[k].x; }}\no[0] = s;",
                    "RWStructuredBuffer<float> o : register(u0);", threads=1)
    result = compile_in_child(source)
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [line for line in result.stdout.splitlines() if "error:" in line]
    assert len(errors) == 1 and "<source>:6:" in errors[0] and what in errors[0], result.stdout
