"""The parser tables: conflict-free when built fresh, built once into a writable cache, reused.

The cache holds the tables as JSON (never a pickle): what is read back parses as the
fresh tables do, and anything else found at the table's path is rebuilt, never run.
"""

import hashlib
import io
import json
import os
import pickle
import subprocess
import sys

import ply.yacc as yacc
import pytest

from shc.compiler.diagnostics import Diagnostics
from shc.compiler.frontend import ast, tables
from shc.compiler.frontend.parser import Parser
from shc.compiler.frontend.preprocess import preprocess

SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "samples")


def fresh_log(grammar_class=Parser) -> str:
    log = io.StringIO()
    grammar_class(Diagnostics(), fresh_tables=True, errorlog=yacc.PlyLogger(log))
    return log.getvalue()


def test_fresh_tables_have_no_conflicts_or_warnings():
    log = fresh_log()
    assert "Generating LALR tables" in log  # the log really is PLY's
    assert "conflict" not in log
    assert "WARNING" not in log and "ERROR" not in log


def test_a_conflict_would_be_reported():
    class Ambiguous(Parser):
        def p_ambiguous(self, p):
            """primary_expression : ID LPAREN argument_list_opt RPAREN"""

    assert "conflict" in fresh_log(Ambiguous)


def cached_tables(directory):
    return sorted(directory.glob("parsetab-*.json"))


def test_tables_are_built_once_and_reused(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("SHC_CACHE_DIR", str(cache))
    Parser(Diagnostics())
    (table,) = cached_tables(cache)
    assert list(cache.iterdir()) == [table]  # no temporary files left behind
    built = table.stat().st_mtime_ns

    def no_generation(*args, **kwargs):
        raise AssertionError("tables generated again")

    monkeypatch.setattr(yacc, "LRGeneratedTable", no_generation)
    parser = Parser(Diagnostics())
    assert table.stat().st_mtime_ns == built
    assert cached_tables(cache) == [table]
    diagnostics = Diagnostics()
    unit = parser.parse(preprocess("float4 v = float4(1, 2, 3, 4);\n", "t.hlsl", diagnostics), diagnostics)
    assert diagnostics.items == [] and unit.decls[0].decls[0].name == "v"


def test_cached_and_fresh_tables_parse_the_same(tmp_path, monkeypatch, fresh_parser):
    monkeypatch.setenv("SHC_CACHE_DIR", str(tmp_path))
    Parser(Diagnostics())
    cached = Parser(Diagnostics())
    for name in sorted(n for n in os.listdir(SAMPLES) if n.endswith(".hlsl")):
        path = os.path.join(SAMPLES, name)
        with open(path) as handle:
            text = handle.read()
        trees = []
        for parser in (fresh_parser, cached):
            diagnostics = Diagnostics()
            trees.append(ast.dump(parser.parse(preprocess(text, path, diagnostics), diagnostics)))
            assert diagnostics.error_count == 0, diagnostics.render()
        assert trees[0] == trees[1], name


def test_unwritable_cache_still_works(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("SHC_CACHE_DIR", str(blocker / "cache"))  # cannot be created under a file
    parser = Parser(Diagnostics())
    diagnostics = Diagnostics()
    parser.parse(preprocess("int x;\n", "t.hlsl", diagnostics), diagnostics)
    assert diagnostics.items == []


def test_cache_directory_refusing_new_files_still_works(tmp_path, monkeypatch):
    """A cache directory that exists but where no file can be created (read-only, full disk)."""
    import tempfile  # cache_files imports it when it writes

    def refuse(*args, **kwargs):
        raise PermissionError("read-only file system")

    monkeypatch.setenv("SHC_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    parser = Parser(Diagnostics())
    diagnostics = Diagnostics()
    parser.parse(preprocess("int x;\n", "t.hlsl", diagnostics), diagnostics)
    assert diagnostics.items == []
    assert cached_tables(tmp_path) == []


class Planted:
    """Unpickling this creates ``marker``: the proof that a cache file was unpickled."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def _with_header(data: bytes, **changes) -> bytes:
    header, body = data.split(b"\n", 1)
    return json.dumps({**json.loads(header), **changes}).encode() + b"\n" + body


def _with_body(data: bytes, edit) -> bytes:
    header, body = data.split(b"\n", 1)
    return header + b"\n" + edit(body)


CORRUPTIONS = {
    "not json": lambda data, marker: b"not json",
    "empty": lambda data, marker: b"",
    "truncated": lambda data, marker: data[: len(data) // 2],
    "a pickle": lambda data, marker: pickle.dumps(Planted(marker)),
    "another grammar": lambda data, marker: _with_header(data, key="0" * 16),
    "another PLY table version": lambda data, marker: _with_header(data, tabversion="0.0"),
    "another format": lambda data, marker: _with_header(data, format=-1),
    "a changed body": lambda data, marker: _with_body(data, lambda body: body.replace(b"1", b"2", 1)),
    "a body of the wrong shape": lambda data, marker: _with_header(
        _with_body(data, lambda body: b'{"action": 1}'), sha256=hashlib.sha256(b'{"action": 1}').hexdigest()),
}


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_corrupt_cache_entry_is_rebuilt(tmp_path, monkeypatch, corruption):
    cache = tmp_path / "cache"
    monkeypatch.setenv("SHC_CACHE_DIR", str(cache))
    Parser(Diagnostics())
    (table,) = cached_tables(cache)
    marker = tmp_path / "unpickled"
    planted = CORRUPTIONS[corruption](table.read_bytes(), marker)
    table.write_bytes(planted)
    parser = Parser(Diagnostics())
    diagnostics = Diagnostics()
    parser.parse(preprocess("int x;\n", "t.hlsl", diagnostics), diagnostics)
    assert diagnostics.items == []
    assert not marker.exists()
    assert table.read_bytes() != planted
    json.loads(table.read_bytes().split(b"\n", 1)[1])  # rebuilt as JSON


def test_a_pickle_at_the_old_table_path_is_never_loaded(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    marker = tmp_path / "unpickled"
    key = tables.grammar_key(Parser.__new__(Parser))
    (cache / f"parsetab-{key}.pickle").write_bytes(pickle.dumps(Planted(marker)))
    monkeypatch.setenv("SHC_CACHE_DIR", str(cache))
    Parser(Diagnostics())
    assert not marker.exists()


def test_tables_read_back_from_json_are_the_fresh_tables(tmp_path, monkeypatch, fresh_parser):
    monkeypatch.setenv("SHC_CACHE_DIR", str(tmp_path))
    Parser(Diagnostics())
    cached = Parser(Diagnostics()).parser  # read from the JSON file
    fresh = fresh_parser.parser
    assert cached.action == fresh.action and cached.goto == fresh.goto
    assert cached.defaulted_states == fresh.defaulted_states

    def productions(parser):
        return [(p.str, p.name, p.len, p.func, p.callable and p.callable.__name__) for p in parser.productions]

    assert productions(cached) == productions(fresh)
    assert cached.errorfunc.__name__ == "p_error"


def test_a_cache_directory_others_can_write_is_refused(tmp_path, monkeypatch, capsys):
    cache = tmp_path / "cache"
    cache.mkdir()
    os.chmod(cache, 0o777)
    monkeypatch.setenv("SHC_CACHE_DIR", str(cache))
    parser = Parser(Diagnostics())
    diagnostics = Diagnostics()
    parser.parse(preprocess("int x;\n", "t.hlsl", diagnostics), diagnostics)
    assert diagnostics.items == []
    assert list(cache.iterdir()) == []
    err = capsys.readouterr().err
    assert err.count("shc: warning: ignoring cache directory") == 1, err
    assert str(cache) in err and "writable" in err


def test_cache_key_follows_the_grammar():
    parser = Parser.__new__(Parser)  # no tables needed to compute the key

    class Changed(Parser):
        def p_extra(self, p):
            """primary_expression : LBRACKET RBRACKET"""

    assert tables.grammar_key(parser) == tables.grammar_key(Parser.__new__(Parser))
    assert tables.grammar_key(parser) != tables.grammar_key(Changed.__new__(Changed))


HELP = """
import sys
import shc.compiler.cli as cli
sys.argv = ["shc", "--help"]
try:
    cli.main()
except SystemExit as done:
    assert done.code == 0, done.code
"""


@pytest.mark.parametrize("code", ["import shc.compiler.cli", HELP])
def test_cli_import_and_help_do_not_build_tables(tmp_path, code):
    cache = tmp_path / "cache"
    env = dict(os.environ, SHC_CACHE_DIR=str(cache))
    check = code + "\nassert 'ply.yacc' not in sys.modules, 'PLY imported'\nprint('done')"
    result = subprocess.run([sys.executable, "-c", "import sys\n" + check], env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.endswith("done\n"), result.stderr
    assert not cache.exists() or not any(cache.iterdir())


@pytest.mark.parametrize("first", ["shc.compiler.frontend.preprocess", "shc.compiler.frontend.preprocess_limits",
                                   "shc.compiler.frontend.lexer"])
def test_one_ply_whichever_front_end_module_comes_first(first):
    """pcpp imports ``ply.lex`` and ``ply.yacc`` with its vendored copy first on ``sys.path``:
    the front end's package imports PLY's own ``ply`` before, so pcpp gets the same modules."""
    check = (f"import {first}\n"
             "import ply, ply.lex, ply.yacc, pcpp.parser\n"
             "assert pcpp.parser.lex is ply.lex and pcpp.parser.yacc is ply.yacc\n"
             "assert 'pcpp' not in ply.lex.__file__, ply.lex.__file__\n"
             "print('done')")
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout == "done\n", result.stderr
