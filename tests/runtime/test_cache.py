"""The on-disk kernel cache: hits and misses counted, keys, dependencies, a rerun in a new process.

With the host code generator absent the kernels are compiled with a stand-in host
module; the cache logic is the same.

The cache holds data, never code: JSON metadata, parser tables as JSON and object
bytes checked against their sha256. Planted pickles are never loaded, corrupt
objects are misses (run in a new process, where a crash would show), directories
are 0700 and files 0600, and a directory others own or can write is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import shc
from shc.compiler import cache_files
from shc.compiler.diagnostics import text_sha256
from shc.runtime import jit

sys.path.insert(0, os.path.dirname(__file__))

SOURCE = """
#include "common.h"
RWStructuredBuffer<uint> dst;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { dst[id.x] = id.x * SCALE + OFFSET; }
"""


EXPECTED = [i * 2 + 3 for i in range(64)]


@pytest.fixture(scope="module")
def parser_tables(tmp_path_factory):
    """The parser tables' JSON file, built once for these tests."""
    directory = tmp_path_factory.mktemp("tables")
    run = subprocess.run([sys.executable, "-c", "from shc.compiler.frontend.parser import Parser; "
                          "from shc.compiler.diagnostics import Diagnostics; Parser(Diagnostics())"],
                         env=dict(os.environ, SHC_CACHE_DIR=str(directory)), capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    (table,) = directory.glob("parsetab-*.json")
    return table


@pytest.fixture
def cache(tmp_path, monkeypatch, parser_tables):
    """A fresh cache directory ``<tmp>`` (its parser tables ready, kernels in ``<tmp>/kernels``)
    and zeroed counters; the include dir next to them."""
    os.chmod(tmp_path, 0o700)
    shutil.copy(parser_tables, tmp_path / parser_tables.name)
    monkeypatch.setenv("SHC_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(jit, "default_cache_dir", lambda: tmp_path / "kernels")
    for name in jit.CACHE_COUNTERS:
        monkeypatch.setitem(jit.CACHE_COUNTERS, name, 0)
    include = tmp_path / "include"
    include.mkdir()
    (include / "common.h").write_text("#define OFFSET 3\n")
    return tmp_path


def compile_it(cache, **options):
    options.setdefault("defines", {"SCALE": "2"})
    return shc.compile(SOURCE, include_dirs=[cache / "include"], **options)


def counts():
    return {name: jit.CACHE_COUNTERS[name] for name in ("hits", "misses", "codegen")}


def dispatch_in_new_process(cache, root=None, prelude=""):
    """Compile and dispatch ``SOURCE`` in a new Python process with ``$SHC_CACHE_DIR`` = ``root``.

    Returns the finished process and its report (counters, from_cache, output), or None.
    """
    script = prelude + textwrap.dedent(f"""
        import json, numpy as np, shc
        from shc.runtime import jit
        k = shc.compile({SOURCE!r}, include_dirs=[{str(cache / "include")!r}], defines={{"SCALE": "2"}})
        out = np.zeros(64, np.uint32)
        k.dispatch((1, 1, 1), dst=out)
        print(json.dumps({{"counters": jit.CACHE_COUNTERS, "from_cache": k.from_cache, "out": out.tolist()}}))
    """)
    env = dict(os.environ, SHC_CACHE_DIR=str(root or cache))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    lines = run.stdout.strip().splitlines()
    return run, (json.loads(lines[-1]) if run.returncode == 0 and lines else None)


def test_second_compile_hits_and_skips_llvm(cache):
    cold = compile_it(cache)
    assert counts() == {"hits": 0, "misses": 1, "codegen": 1} and not cold.from_cache
    warm = compile_it(cache)
    assert counts() == {"hits": 1, "misses": 1, "codegen": 1} and warm.from_cache
    assert warm.numthreads == (64, 1, 1) and warm.bindings.names() == cold.bindings.names()
    assert warm.object_code == cold.object_code
    assert "buffer_store" in warm.ir  # compiled again, lazily, for the text


@pytest.mark.parametrize("change", [
    {"defines": {"SCALE": "3"}}, {"wave_size": 64}, {"entry": "other"},
], ids=["define", "wave size", "entry"])
def test_every_option_is_in_the_key(cache, change):
    compile_it(cache)
    source = SOURCE + "[numthreads(64, 1, 1)] void other() { dst[0] = SCALE; }\n"
    if "entry" in change:
        shc.compile(source, include_dirs=[cache / "include"], defines={"SCALE": "2"}, entry="other")
    else:
        compile_it(cache, **change)
    assert counts()["misses"] == 2 and counts()["hits"] == 0


def test_source_text_is_in_the_key(cache):
    compile_it(cache)
    shc.compile(SOURCE + "\n// edited\n", include_dirs=[cache / "include"], defines={"SCALE": "2"})
    assert counts()["misses"] == 2


def test_an_edited_include_is_a_miss_and_the_old_variant_comes_back(cache):
    header = cache / "include" / "common.h"
    compile_it(cache)
    header.write_text("#define OFFSET 4\n")
    compile_it(cache)
    assert counts() == {"hits": 0, "misses": 2, "codegen": 2}
    header.write_text("#define OFFSET 3\n")
    assert compile_it(cache).from_cache
    assert counts()["hits"] == 1


def test_files_are_written_atomically_and_the_index_is_versioned(cache):
    compile_it(cache)
    files = sorted(os.listdir(cache / "kernels"))
    assert not [name for name in files if name.endswith(".tmp")]
    (index_name,) = [name for name in files if name.endswith(".index")]
    index = json.loads((cache / "kernels" / index_name).read_text())
    assert index["format"] == jit.CACHE_FORMAT
    (entry,) = index["entries"]
    assert entry["dependencies"] == [[str(cache / "include" / "common.h"), text_sha256("#define OFFSET 3\n")]]
    index["format"] = jit.CACHE_FORMAT + 1
    (cache / "kernels" / index_name).write_text(json.dumps(index))
    assert not compile_it(cache).from_cache  # another format is a miss, and is replaced


@pytest.mark.parametrize("garbage", [b"garbage", b"", b"{}", b"[]", b'{"format": 2, "entries": [{}]}'])
def test_a_corrupt_cache_is_a_miss_not_a_crash(cache, garbage):
    compile_it(cache)
    for name in os.listdir(cache / "kernels"):
        (cache / "kernels" / name).write_bytes(garbage)
    kernel = compile_it(cache)
    assert not kernel.from_cache and counts()["misses"] == 2
    assert compile_it(cache).from_cache  # the entry was written again


def test_the_kernel_description_survives_json():
    source = """
        struct Particle { float3 pos; row_major float2x3 m; uint flags[2]; };
        cbuffer Params : register(b1) { float4x4 xform; float scale; uint2 size; };
        StructuredBuffer<Particle> src : register(t0);
        RWStructuredBuffer<float4> dst : register(u0);
        Texture2D<float4> tex : register(t1, space1);
        SamplerState lin : register(s0);
        ByteAddressBuffer raw : register(t2);
        groupshared float tile[64];
        [numthreads(64, 1, 1)]
        void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
            tile[gi] = src[id.x].pos.x * scale + raw.Load(0) + src[id.x].flags[1];
            GroupMemoryBarrierWithGroupSync();
            dst[id.x] = mul(xform, float4(src[id.x].m[0], tile[63 - gi])) + tex.SampleLevel(lin, float2(0, 0), 0);
        }
    """
    info = shc.compile(source).info
    data = info.to_dict()
    again = type(info).from_dict(json.loads(json.dumps(data)))
    assert again == info and again.to_dict() == data
    particle = next(b.element for b in again.bindings if b.name == "src")
    assert particle.fields == next(b.element for b in info.bindings if b.name == "src").fields
    assert again.cbuffers["Params"].fields[0].stored == info.cbuffers["Params"].fields[0].stored
    assert again.barriers == info.barriers and all(isinstance(key, int) for key in again.barriers)
    assert again.orientations == info.orientations and again.declared == info.declared


@pytest.mark.parametrize("broken", [
    {}, {"entry": 1}, {"numthreads": "64"}, {"bindings": [{"element": {"t": "pickle"}}]},
    {"cbuffers": {"Params": {"fields": [{"type": None}]}}}, {"barriers": [["1", 2]]},
], ids=["empty", "entry", "numthreads", "element type", "cbuffer field", "barriers"])
def test_a_malformed_kernel_description_is_refused(cache, broken):
    info = compile_it(cache).info
    data = {**info.to_dict(), **broken} if broken else {}
    with pytest.raises(ValueError):
        type(info).from_dict(json.loads(json.dumps(data)))


class Planted:
    """Unpickling this creates ``marker``: the proof that a cache file was unpickled."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_a_planted_pickle_is_never_loaded(cache):
    run, report = dispatch_in_new_process(cache)  # fills the cache: parser tables, index, metadata, object
    assert run.returncode == 0, run.stderr
    marker = cache / "unpickled"
    payload = pickle.dumps(Planted(marker))
    planted = [path for path in cache.rglob("*") if path.is_file() and path.parent.name != "include"]
    assert {path.suffix for path in planted} >= {".json", ".index", ".info", ".o"}
    for path in planted:
        path.write_bytes(payload)
    from shc.compiler.frontend import tables
    from shc.compiler.frontend.parser import Parser

    legacy_tables = cache / f"parsetab-{tables.grammar_key(Parser.__new__(Parser))}.pickle"
    legacy_tables.write_bytes(payload)  # where the pickle cache kept the tables
    run, report = dispatch_in_new_process(cache)
    assert run.returncode == 0, run.stderr
    assert not marker.exists()
    assert report["out"] == EXPECTED and not report["from_cache"]
    assert "Traceback" not in run.stderr


def test_cache_files_are_private_whatever_the_umask(cache):
    root = cache / "fresh" / "shc"
    run, report = dispatch_in_new_process(cache, root=root, prelude="import os; os.umask(0)\n")
    assert run.returncode == 0, run.stderr
    assert report["out"] == EXPECTED
    made = [root.parent, root, *root.rglob("*")]
    assert {path.name for path in made} >= {"kernels"} and any(path.suffix == ".o" for path in made)
    modes = {str(path.relative_to(cache)): stat.S_IMODE(path.stat().st_mode) for path in made}
    expected = {name: 0o700 if (cache / name).is_dir() else 0o600 for name in modes}
    assert modes == expected


def test_a_world_writable_cache_directory_is_refused(cache):
    os.chmod(cache, 0o777)
    run, report = dispatch_in_new_process(cache)
    assert run.returncode == 0, run.stderr
    assert report["out"] == EXPECTED and report["counters"]["stores"] == 0
    assert run.stderr.count("shc: warning: ignoring cache directory") == 1, run.stderr
    assert f"ignoring cache directory {cache}: " in run.stderr and "writable" in run.stderr
    assert "Traceback" not in run.stderr
    assert not (cache / "kernels").exists()


def test_a_cache_directory_owned_by_someone_else_is_refused(cache, monkeypatch, capsys):
    real_stat = os.stat

    def stat_as_if_owned_by_another_user(path, *args, **kwargs):
        result = real_stat(path, *args, **kwargs)
        if isinstance(path, (str, Path)) and Path(path) == cache:
            fields = list(result)
            fields[stat.ST_UID] = result.st_uid + 1
            return os.stat_result(fields)
        return result

    monkeypatch.setattr(os, "stat", stat_as_if_owned_by_another_user)
    out = np.zeros(64, np.uint32)
    compile_it(cache).dispatch((1, 1, 1), dst=out)
    assert out.tolist() == EXPECTED
    assert not compile_it(cache).from_cache and jit.CACHE_COUNTERS["stores"] == 0
    err = capsys.readouterr().err
    assert err.count("shc: warning: ignoring cache directory") == 1, err
    assert f"ignoring cache directory {cache}: " in err and "owned by" in err


def test_a_cache_file_others_can_write_is_refused(cache, capsys):
    compile_it(cache)
    (index,) = (cache / "kernels").glob("*.index")
    os.chmod(index, 0o666)
    assert not compile_it(cache).from_cache
    err = capsys.readouterr().err
    assert err.count("shc: warning: ignoring cache file") == 1 and "writable" in err, err
    assert stat.S_IMODE(index.stat().st_mode) == 0o600  # written again, privately
    assert compile_it(cache).from_cache


def _flip_a_byte(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1:]


@pytest.mark.parametrize("corrupt", [
    lambda data: data[: len(data) // 2], lambda data: b"", lambda data: os.urandom(len(data)), _flip_a_byte,
], ids=["truncated", "empty", "random", "byte flipped"])
def test_a_corrupt_object_file_is_a_miss_in_a_new_process(cache, corrupt):
    run, _ = dispatch_in_new_process(cache)
    assert run.returncode == 0, run.stderr
    (obj,) = (cache / "kernels").glob("*.o")
    obj.write_bytes(corrupt(obj.read_bytes()))
    run, report = dispatch_in_new_process(cache)
    assert run.returncode == 0, run.stderr  # no SIGSEGV, no SIGILL
    assert report["out"] == EXPECTED and not report["from_cache"]
    assert report["counters"]["misses"] == 1 and report["counters"]["codegen"] == 1
    (info,) = (cache / "kernels").glob("*.info")
    assert json.loads(info.read_text())["object_sha256"] == hashlib.sha256(obj.read_bytes()).hexdigest()


def test_an_unwritable_cache_only_costs_speed(cache, monkeypatch):
    blocker = cache / "file"
    blocker.write_text("")
    monkeypatch.setattr(jit, "default_cache_dir", lambda: blocker / "kernels")
    compile_it(cache)
    assert not compile_it(cache).from_cache


def test_rerun_in_a_new_process_hits(cache):
    cache_files.code_fingerprint.cache_clear()  # the sources as they are now
    out = np.zeros(64, np.uint32)
    compile_it(cache).dispatch((1, 1, 1), dst=out)
    run, report = dispatch_in_new_process(cache)
    assert run.returncode == 0, run.stderr
    assert report["from_cache"] and report["counters"]["hits"] == 1
    assert report["counters"]["misses"] == 0 and report["counters"]["codegen"] == 0
    assert report["out"] == out.tolist() == EXPECTED


# What loading a kernel from the cache must not import: the front end beyond its types (PLY,
# pcpp, the parser and checker), the middle end, the code generators, LLVM, and OpenSSL (hashlib's
# _hashlib: the cache's sha256 is CPython's own, compiler/digests.py). Each would cost every warm
# start milliseconds it does not use (README, "Benchmarks", start-up).
NOT_FOR_A_HIT = ("ply.lex", "ply.yacc", "pcpp", "shc.compiler.pipeline", "shc.compiler.ir.core",
                 "shc.compiler.passes", "shc.compiler.backend.host.jit", "shc.compiler.backend.host.module",
                 "llvmlite.binding", "tempfile")


def test_a_hit_in_a_new_process_imports_none_of_the_compiler(cache):
    from shc.compiler import digests

    cache_files.code_fingerprint.cache_clear()  # the sources as they are now
    compile_it(cache)
    script = textwrap.dedent(f"""
        import json, sys, shc
        k = shc.compile({SOURCE!r}, include_dirs=[{str(cache / "include")!r}], defines={{"SCALE": "2"}})
        k._loaded()  # the object placed in memory, as shc.spd does before a first dispatch
        print(json.dumps({{"from_cache": k.from_cache, "modules": sorted(sys.modules)}}))
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, SHC_CACHE_DIR=str(cache)))
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    loaded = set(report["modules"])
    assert report["from_cache"]
    assert sorted(name for name in loaded if name.startswith(NOT_FOR_A_HIT)) == []
    assert sorted(name for name in loaded if name.startswith("shc.compiler.frontend.")) == \
        ["shc.compiler.frontend.hlsl_types"]
    assert "_hashlib" not in loaded or digests.sha256.__module__ == "_hashlib"  # a Python without its own


def test_the_cache_hashes_are_sha256():
    from shc.compiler import digests

    for data in (b"", b"abc", os.urandom(100_000)):
        assert digests.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    hasher = digests.sha256(b"head")
    hasher.update(b"tail")
    assert hasher.hexdigest() == hashlib.sha256(b"headtail").hexdigest()
    assert text_sha256("é") == hashlib.sha256("é".encode()).hexdigest()
