"""Shared fixtures: a front end built once per test session from fresh parser tables."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from shc.compiler.diagnostics import CompileError, Diagnostics
from shc.compiler.frontend import ast
from shc.compiler.frontend.parser import Parser
from shc.compiler.frontend.preprocess import preprocess


# The suite compiles thousands of small kernels: LLVM's fast tier (SHC_OPT=0, the same results
# bit for bit, tests/runtime/test_opt_levels.py) halves their code generation. Tests that need
# the default level ask for the ``default_opt`` fixture; a level set outside the suite wins.
os.environ.setdefault("SHC_OPT", "0")

_RUN_DIRECTORY = pytest.StashKey[str]()


def pytest_configure(config):
    """A directory for the whole run, made by the first process; the xdist workers it starts
    and every child process inherit what it sets:

    - ``SHC_CACHE_DIR`` (kernels, CLI output, parser tables) unless set outside the suite: a
      kernel several tests or workers compile is compiled once, and a run never writes the
      user's cache. Tests of the caches themselves keep their own directories.
    - where the run's Python processes keep bytecode when ``PYTHONDONTWRITEBYTECODE`` forbids
      writing it beside the sources: the suite starts hundreds of ``shc`` processes, and each
      would otherwise compile shc's modules from source again (about 0.7 s of CPU each on
      a clone without bytecode)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    directory = config.stash[_RUN_DIRECTORY] = tempfile.mkdtemp(prefix="shc-test-run-")
    if "SHC_CACHE_DIR" not in os.environ:
        os.environ["SHC_CACHE_DIR"] = os.path.join(directory, "cache")
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and "PYTHONPYCACHEPREFIX" not in os.environ:
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(directory, "bytecode")


def pytest_unconfigure(config):
    directory = config.stash.get(_RUN_DIRECTORY, None)
    if directory is not None:
        shutil.rmtree(directory, ignore_errors=True)


class FrontEnd:
    """Preprocess and parse snippets with one parser, its tables built fresh (no cache)."""

    def __init__(self, parser: Parser):
        self.parser = parser

    def run(self, text: str, filename: str = "test.hlsl", defines=None, include_dirs=None):
        """Preprocess and parse ``text``; returns (unit or None, diagnostics). Never raises CompileError."""
        diagnostics = Diagnostics()
        try:
            source = preprocess(text, filename, diagnostics, defines or {}, include_dirs or [])
            if diagnostics.error_count:
                return None, diagnostics
            return self.parser.parse(source, diagnostics), diagnostics
        except CompileError:  # the error limit was reached
            return None, diagnostics

    def parse(self, text: str, **options) -> ast.TranslationUnit:
        """The tree of a snippet that must have no errors."""
        unit, diagnostics = self.run(text, **options)
        assert diagnostics.error_count == 0, diagnostics.render()
        return unit

    def errors(self, text: str, **options) -> list[tuple[str, int, int, str]]:
        """``(file, line, col, message)`` of each error; the snippet must have some."""
        _, diagnostics = self.run(text, **options)
        found = [(d.coord.file, d.coord.line, d.coord.col, d.message)
                 for d in diagnostics.items if d.severity == "error"]
        assert found, "expected errors"
        return found

    def decl(self, text: str, index: int = -1, **options):
        """One top-level declaration of a snippet (the last by default)."""
        return self.parse(text, **options).decls[index]

    def body(self, statements: str, prelude: str = "") -> list:
        """The statements of ``void f() {`` + ``statements`` + ``}``; they start on line 2."""
        unit = self.parse(f"{prelude}void f() {{\n{statements}\n}}\n")
        return unit.decls[-1].body.items

    def expr(self, text: str, prelude: str = ""):
        """An expression written alone on line 2, column 1 of a function body."""
        (statement,) = self.body(text + ";", prelude)
        assert isinstance(statement, ast.ExprStmt)
        return statement.expr

    @staticmethod
    def assert_coord(node, line: int, col: int, file: str | None = None) -> None:
        coord = node.coord
        assert (coord.line, coord.col) == (line, col), f"{type(node).__name__} at {coord}"
        if file is not None:
            assert coord.file == file


@pytest.fixture(scope="session")
def fresh_parser() -> Parser:
    return Parser(Diagnostics(), fresh_tables=True)


@pytest.fixture
def fe(fresh_parser) -> FrontEnd:
    return FrontEnd(fresh_parser)


@pytest.fixture
def default_opt(monkeypatch):
    """Compile at shc's default optimisation level (SHC_OPT unset), whatever the suite uses."""
    monkeypatch.delenv("SHC_OPT", raising=False)


@pytest.fixture(scope="session")
def _session_cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("shc-cache")


@pytest.fixture
def shc_cache(_session_cache_dir, monkeypatch):
    """Point shc's table cache at a per-session directory (tests never write the user's cache)."""
    monkeypatch.setenv("SHC_CACHE_DIR", str(_session_cache_dir))
    return _session_cache_dir


@pytest.fixture(scope="module")
def private_kernel_cache(tmp_path_factory):
    """Kernels a test module compiles go to its own directory, never the user's cache
    (a module opts in with ``pytestmark = pytest.mark.usefixtures("private_kernel_cache")``)."""
    from shc.runtime import jit

    patch = pytest.MonkeyPatch()
    directory = tmp_path_factory.mktemp("kernels")
    patch.setattr(jit, "default_cache_dir", lambda: directory)
    yield directory
    patch.undo()
