"""The Python API as a user meets it: shc.compile / compile_file, Kernel attributes, errors.

Dispatching compiled HLSL needs the host code generator; those tests skip until it
exists. The rest runs with a stand-in host module where one is needed.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import shc
from shc.runtime import jit

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import cli_runner  # noqa: E402

SCALE = """
RWStructuredBuffer<float> data : register(u0);
float factor;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { data[id.x] = data[id.x] * factor + N; }
"""


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(jit, "default_cache_dir", lambda: tmp_path / "kernels")
    return tmp_path


def test_import_shc_does_not_load_the_runtime():
    code = "import sys, shc; print('shc.runtime.kernel' in sys.modules, 'llvmlite' in sys.modules, " \
           "'numpy' in sys.modules)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.stdout.split() == ["False", "False", "False"], run.stderr


def test_kernel_attributes(private_cache):
    k = shc.compile(SCALE, defines={"N": "1"})
    assert isinstance(k, shc.Kernel)
    assert k.numthreads == (64, 1, 1) and k.wave_size == 32 and k.entry == "main"
    (data, globals_) = sorted(k.bindings, key=lambda b: b.name != "data")
    assert (data.name, data.kind, str(data.element), data.register, data.space) == \
        ("data", "RWStructuredBuffer", "float", "u0", 0)
    assert globals_.kind == "cbuffer"
    assert "buffer_store" in k.ir
    assert "main" in repr(k)


def test_wave_size_and_wave_size_attribute(private_cache):
    assert shc.compile(SCALE, defines={"N": "1"}, wave_size=64).wave_size == 64
    forced = SCALE.replace("[numthreads", "[WaveSize(64)] [numthreads")
    assert shc.compile(forced, defines={"N": "1"}, wave_size=32).wave_size == 64
    with pytest.raises(ValueError, match="wave_size must be 32 or 64"):
        shc.compile(SCALE, wave_size=16)


def test_compile_errors_carry_formatted_diagnostics(private_cache):
    with pytest.raises(shc.KernelCompileError) as caught:
        shc.compile(SCALE)  # N is not defined
    text = str(caught.value)
    assert text.startswith("<source>:5:") and "error:" in text and "N" in text
    assert "^" in text  # the source line and a caret
    assert caught.value.diagnostics and caught.value.diagnostics[0].severity == "error"


def test_compile_error_is_a_compile_error(private_cache):
    from shc.compiler.diagnostics import CompileError

    with pytest.raises(CompileError):
        shc.compile("[numthreads(1, 1, 1)] void main() { undefined_thing(); }")


def test_missing_entry_point(private_cache):
    with pytest.raises(shc.KernelCompileError, match="entry"):
        shc.compile(SCALE, defines={"N": "1"}, entry="nope")


def test_compile_file_with_defines_and_includes(private_cache, tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "n.h").write_text("#define N 3\n")
    path = tmp_path / "scale.hlsl"
    path.write_text('#include "n.h"\n' + SCALE)
    k = shc.compile_file(path, include_dirs=[tmp_path / "inc"])
    assert k.info.source_file.endswith("scale.hlsl")
    k64 = shc.compile_file(str(path), entry="main", defines={"N": "4"}, wave_size=64, include_dirs=[tmp_path / "inc"])
    assert k64.wave_size == 64


def test_compile_file_that_does_not_exist(private_cache, tmp_path):
    with pytest.raises(shc.KernelCompileError, match="cannot read file"):
        shc.compile_file(tmp_path / "missing.hlsl")


def test_listing_is_the_rdna2_listing_or_says_it_is_missing(private_cache):
    k = shc.compile(SCALE, defines={"N": "1"})
    try:
        listing = k.listing
    except NotImplementedError as missing:
        assert "render_listing" in str(missing)
    else:
        assert isinstance(listing, str) and listing


def test_sampler_is_exported():
    sampler = shc.Sampler(filter="linear", address="wrap")
    assert (sampler.filter, sampler.address, sampler.border) == ("linear", "wrap", (0.0, 0.0, 0.0, 0.0))


def test_binding_error_is_raised_before_anything_runs(private_cache):
    k = shc.compile(SCALE, defines={"N": "1"})
    with pytest.raises(shc.BindingError, match="missing resource 'data'"):
        k.dispatch((1, 1, 1), factor=2.0)
    with pytest.raises(shc.BindingError, match="missing constant 'factor'"):
        k.dispatch((1, 1, 1), data=np.zeros(64, np.float32))


def test_dispatch_writes_into_the_callers_array(private_cache):
    k = shc.compile(SCALE, defines={"N": "1"})
    data = np.arange(256, dtype=np.float32)
    result = k.dispatch((4, 1, 1), data=data, factor=2.0)
    assert np.array_equal(data, np.arange(256, dtype=np.float32) * 2 + 1)
    assert result.stats.waves == 8 and result.stats.instructions["vmem"] >= 16
    assert result.stats.mean_active_lanes == pytest.approx(32.0)


def test_non_contiguous_outputs_are_copied_back(private_cache):
    k = shc.compile(SCALE, defines={"N": "1"})
    backing = np.zeros(128, np.float32)
    view = backing[::2]
    view[:] = 1.0
    k.dispatch((1, 1, 1), data=view, factor=3.0)
    assert np.all(backing[::2] == 4.0) and not backing[1::2].any()


# -- shc run ------------------------------------------------------------------------------


def shc_run(*args, cwd):
    return cli_runner.shc("run", *args, cwd=cwd, env={"SHC_CACHE_DIR": str(cwd / "cache")})


def test_shc_run_reports_bad_arguments(tmp_path):
    (tmp_path / "k.hlsl").write_text(SCALE)
    run = shc_run("k.hlsl", "--groups", "2,x", cwd=tmp_path)
    assert run.returncode == 1 and "shc: error: --groups expects X,Y,Z" in run.stderr
    run = shc_run("k.hlsl", "--groups", "1", cwd=tmp_path)  # N is not defined
    assert run.returncode == 1 and "k.hlsl:5:" in run.stderr and "error:" in run.stderr
    assert "Traceback" not in run.stderr


def test_shc_run_binds_npy_files_and_prints_stats(tmp_path):
    (tmp_path / "k.hlsl").write_text(SCALE)
    np.save(tmp_path / "data.npy", np.arange(128, dtype=np.float32))
    run = shc_run("k.hlsl", "--groups", "2,1,1", "--input", "data=data.npy", "--output", "data=out.npy",
                  "--set", "factor=2", "-D", "N=1", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "VALU" in run.stdout and "mean active lanes" in run.stdout
    assert np.array_equal(np.load(tmp_path / "out.npy"), np.arange(128, dtype=np.float32) * 2 + 1)
    run = shc_run("k.hlsl", "--groups", "2,1,1", "--output", "data=zeros.npy", "--set", "factor=2", "-D", "N=5",
                  cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert np.array_equal(np.load(tmp_path / "zeros.npy"), np.full(128, 5, np.float32))
    run = shc_run("k.hlsl", "--input", "data=data.npy", "-D", "N=1", cwd=tmp_path)
    assert run.returncode == 1 and "missing constant 'factor'" in run.stderr
    run = shc_run("k.hlsl", "--set", "factor=2", "-D", "N=1", cwd=tmp_path)  # the buffer in no option
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert ("shc: error: missing resource 'data' (RWStructuredBuffer at u0): give it with --input data=FILE, "
            "or --output data=FILE for a zeroed one") in run.stderr
