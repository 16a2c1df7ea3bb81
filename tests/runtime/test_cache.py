"""The on-disk kernel cache: hits and misses counted, keys, dependencies, a rerun in a new process.

With the host code generator absent the kernels are compiled with a stand-in host
module; the cache logic is the same.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import shc
from shc.runtime import jit

sys.path.insert(0, os.path.dirname(__file__))

SOURCE = """
#include "common.h"
RWStructuredBuffer<uint> dst;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { dst[id.x] = id.x * SCALE + OFFSET; }
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh cache directory (``<tmp>/kernels``) and zeroed counters; the include dir next to it."""
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
    with open(cache / "kernels" / index_name, "rb") as handle:
        index = pickle.load(handle)
    assert index["format"] == jit.CACHE_FORMAT
    (entry,) = index["entries"]
    assert entry["dependencies"] == [(str(cache / "include" / "common.h"), jit.text_hash("#define OFFSET 3\n"))]
    index["format"] = jit.CACHE_FORMAT + 1
    (cache / "kernels" / index_name).write_bytes(pickle.dumps(index))
    assert not compile_it(cache).from_cache  # another format is a miss, and is replaced


def test_a_corrupt_cache_is_a_miss_not_a_crash(cache):
    compile_it(cache)
    for name in os.listdir(cache / "kernels"):
        (cache / "kernels" / name).write_bytes(b"garbage")
    kernel = compile_it(cache)
    assert not kernel.from_cache and counts()["misses"] == 2


def test_an_unwritable_cache_only_costs_speed(cache, monkeypatch):
    blocker = cache / "file"
    blocker.write_text("")
    monkeypatch.setattr(jit, "default_cache_dir", lambda: blocker / "kernels")
    compile_it(cache)
    assert not compile_it(cache).from_cache


def test_rerun_in_a_new_process_hits(cache, monkeypatch):
    monkeypatch.delitem(jit._STATE, "fingerprint", raising=False)  # the sources as they are now
    out = np.zeros(64, np.uint32)
    compile_it(cache).dispatch((1, 1, 1), dst=out)
    script = textwrap.dedent(f"""
        import json, numpy as np, shc
        from shc.runtime import jit
        k = shc.compile({SOURCE!r}, include_dirs=[{str(cache / "include")!r}], defines={{"SCALE": "2"}})
        out = np.zeros(64, np.uint32)
        k.dispatch((1, 1, 1), dst=out)
        print(json.dumps({{"counters": jit.CACHE_COUNTERS, "from_cache": k.from_cache, "out": out.tolist()}}))
    """)
    env = dict(os.environ, SHC_CACHE_DIR=str(cache))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert report["from_cache"] and report["counters"]["hits"] == 1
    assert report["counters"]["misses"] == 0 and report["counters"]["codegen"] == 0
    assert report["out"] == out.tolist()
