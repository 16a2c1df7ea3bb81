"""``cache_files.code_fingerprint``, in every cache key of compiled output: shc's modules'
paths, sizes and modification times, and where shc is installed. An edit (a new time or a
new size), a new module or another installation changes it; reading it again does not."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from shc.compiler import cache_files


def fingerprint_of(root: Path) -> str:
    """The fingerprint a copy of ``cache_files.py`` installed under ``root`` computes (a fresh
    module each time: the fingerprint is computed once per process)."""
    spec = importlib.util.spec_from_file_location(f"fingerprint_{os.urandom(4).hex()}",
                                                  root / "compiler" / "cache_files.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.code_fingerprint()


@pytest.fixture
def tree(tmp_path) -> Path:
    root = tmp_path / "shc"
    (root / "compiler").mkdir(parents=True)
    (root / "runtime").mkdir()
    shutil.copy2(cache_files.__file__, root / "compiler" / "cache_files.py")
    (root / "runtime" / "kernel.py").write_text("ANSWER = 1\n")
    (root / "runtime" / "notes.txt").write_text("not a module\n")
    os.utime(root / "runtime" / "kernel.py", ns=(10**18, 10**18))
    return root


def test_the_same_tree_gives_the_same_fingerprint(tree):
    assert fingerprint_of(tree) == fingerprint_of(tree)


@pytest.mark.parametrize("change", ["edit, same size", "edit, new size", "new module", "other files"])
def test_an_edit_or_a_new_module_changes_it(tree, change):
    before = fingerprint_of(tree)
    module = tree / "runtime" / "kernel.py"
    if change == "edit, same size":
        module.write_text("ANSWER = 2\n")  # the editor's write gives it a new time
    elif change == "edit, new size":
        module.write_text("ANSWER = 42\n")
        os.utime(module, ns=(10**18, 10**18))  # even with the old time stamp kept
    elif change == "new module":
        (tree / "compiler" / "extra.py").write_text("")
    else:
        (tree / "runtime" / "notes.txt").write_text("still not a module, longer now\n")
    assert (fingerprint_of(tree) != before) == (change != "other files")


def test_another_installation_has_another_fingerprint(tree, tmp_path):
    copy = tmp_path / "elsewhere" / "shc"
    shutil.copytree(tree, copy, copy_function=shutil.copy2)  # the same files, times and sizes
    assert fingerprint_of(copy) != fingerprint_of(tree)
