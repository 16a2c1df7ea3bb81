"""Building the LALR tables once and caching them on disk, as data.

PLY's table generation takes a fraction of a second; shc builds the tables the
first time the parser is needed and keeps them in a user cache directory, keyed
by a hash of the grammar (its rules, tokens and precedence) and the PLY version,
so a changed grammar never reads stale tables and an install directory is never
written to. Tests can ask for fresh tables (``fresh=True``), built with
``optimize=False`` so PLY validates the grammar and reports conflicts to ``errorlog``.

The cache holds data, never code. PLY's own table caches are a pickle and a Python
module, and loading either runs whatever the file says, so shc writes the tables
as JSON: a header line (format, grammar key, PLY's table version, the body's
sha256), then the body (``action`` and ``goto`` rows by state, ``productions`` as
PLY's ``MiniProduction`` fields). Loading fills in an ``LRTable`` as PLY's loaders
do, binds each production to the grammar's ``p_`` method of that name
(``bind_callables``) and builds the ``LRParser``; a file whose header, hash or
shape is not right is rebuilt.

The files are read and written through ``compiler/cache_files.py``, which holds the
rules every file in the cache directory follows.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

import ply
import ply.yacc as yacc

from ..cache_files import cache_dir, private_directory, read_private, write_private

TABLES_FORMAT = 1  # bump when the JSON layout of the tables changes


def grammar_key(grammar: object) -> str:
    """A hash of everything the tables depend on, taken from the grammar object itself.

    Hashing the loaded grammar rather than the source files means a process
    that imported an older parser while the files changed on disk can never
    store its tables under the new grammar's name. ``dir`` lists inherited
    methods too, so a grammar spread over mixin classes in several modules is
    hashed whole; the rules are taken in PLY's order (line, module, name).
    """
    rules = []
    for name in dir(grammar):
        if name.startswith("p_") and name != "p_error":
            method = getattr(grammar, name)
            rules.append((method.__code__.co_firstlineno, method.__module__, name, method.__doc__ or ""))
    rules.sort()
    digest = hashlib.sha256(ply.__version__.encode())
    for part in (repr(grammar.tokens), repr(grammar.precedence), grammar.start,
                 repr([(name, doc) for _, _, name, doc in rules])):
        digest.update(part.encode())
    return digest.hexdigest()[:16]


def build_parser(grammar: object, *, fresh: bool = False, errorlog=None) -> yacc.LRParser:
    """The LALR parser for ``grammar`` (an object with PLY ``p_`` methods).

    With ``fresh``, the tables are built in memory and checked; PLY's warnings,
    including grammar conflicts (it counts them only in debug mode), go to
    ``errorlog`` (default: standard error).
    """
    if fresh:
        return yacc.yacc(module=grammar, optimize=False, debug=True, debuglog=yacc.NullLogger(),
                         write_tables=False, errorlog=errorlog or _WarningsOnly(sys.stderr))
    key = grammar_key(grammar)
    directory = cache_dir()
    if not private_directory(directory, create=True):
        return _generate(grammar)  # no usable cache: build in memory every time
    target = directory / f"parsetab-{key}.json"
    data = read_private(target)
    table = None if data is None else _read_tables(data, key)
    if table is not None:
        try:
            return _assemble(table, grammar)
        except KeyError:  # a production names an action the grammar does not have: rebuild
            pass
    parser = _generate(grammar)
    try:
        write_private(target, _tables_file(parser, key))
    except OSError:
        pass  # a read-only or full cache directory only costs speed
    return parser


def _generate(grammar: object) -> yacc.LRParser:
    return yacc.yacc(module=grammar, optimize=True, debug=False, write_tables=False, errorlog=yacc.NullLogger())


class _WarningsOnly(yacc.PlyLogger):
    """PLY's logger without its progress chatter ("Generating LALR tables")."""

    def debug(self, msg, *args, **kwargs):
        pass

    info = debug


# ---------------------------------------------------------------------------------------
# the tables as JSON
# ---------------------------------------------------------------------------------------


def _tables_file(parser: yacc.LRParser, key: str) -> bytes:
    """The header line and the JSON body of ``parser``'s tables (the fields of PLY's ``pickle_table``)."""
    states = range(len(parser.action))
    productions = [[str(p), p.name, p.len, p.func, os.path.basename(p.file), p.line] if p.func
                   else [str(p), p.name, p.len, None, None, None] for p in parser.productions]
    body = json.dumps({"method": "LALR", "action": [parser.action[state] for state in states],
                       "goto": [parser.goto[state] for state in states], "productions": productions},
                      separators=(",", ":")).encode()
    return json.dumps(_header(key, body)).encode() + b"\n" + body


def _header(key: str, body: bytes) -> dict:
    return {"format": TABLES_FORMAT, "key": key, "tabversion": yacc.__tabversion__,
            "sha256": hashlib.sha256(body).hexdigest()}


def _read_tables(data: bytes, key: str) -> yacc.LRTable | None:
    """The tables in ``data`` if its header is this grammar's and its body is intact, else None."""
    header, _, body = data.partition(b"\n")
    try:
        if json.loads(header) != _header(key, body):
            return None
        return _lr_table(json.loads(body))
    except (ValueError, TypeError, KeyError, RecursionError):  # not JSON, or not the tables' shape
        return None


def _lr_table(body: dict) -> yacc.LRTable:
    """An ``LRTable`` filled in from the JSON body; ValueError when a row or rule is malformed.

    Action entries are PLY's: a shift (> 0) names a state, a reduce (< 0) a rule,
    0 accepts and None (a ``nonassoc`` tie) is an error; goto entries name states.
    """
    action, goto, productions = body["action"], body["goto"], body["productions"]
    if not (isinstance(action, list) and isinstance(goto, list) and len(goto) == len(action)
            and isinstance(productions, list) and body["method"] == "LALR"):
        raise ValueError("not LALR tables")
    states, rules = len(action), len(productions)
    for row in action:
        if not isinstance(row, dict) or not all(
                entry is None or (type(entry) is int and -rules < entry < states) for entry in row.values()):
            raise ValueError("a malformed action row")
    for row in goto:
        if not isinstance(row, dict) or not all(type(entry) is int and 0 <= entry < states for entry in row.values()):
            raise ValueError("a malformed goto row")
    table = yacc.LRTable()
    table.lr_method = "LALR"
    table.lr_action = dict(enumerate(action))
    table.lr_goto = dict(enumerate(goto))
    table.lr_productions = [yacc.MiniProduction(*_production(fields)) for fields in productions]
    return table


def _production(fields: list) -> list:
    """``(str, name, len, func, file, line)`` of one rule, checked."""
    text, name, length, func, file, line = fields
    if not (isinstance(text, str) and isinstance(name, str) and type(length) is int and length >= 0
            and (func is None or isinstance(func, str)) and (file is None or isinstance(file, str))
            and (line is None or type(line) is int)):
        raise ValueError("a malformed production")
    return fields


def _assemble(table: yacc.LRTable, grammar: object) -> yacc.LRParser:
    """The parser over ``table``, as PLY builds it from its own cache; KeyError for an unknown action."""
    actions = {name: getattr(grammar, name) for name in dir(grammar) if name.startswith("p_") and name != "p_error"}
    table.bind_callables(actions)
    return yacc.LRParser(table, getattr(grammar, "p_error", None))


# ---------------------------------------------------------------------------------------
# the cache directory's rules
# ---------------------------------------------------------------------------------------
