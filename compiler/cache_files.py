"""The cache directory and the rules every file in it follows (parser tables, kernels).

The rules are pip's and numba's: directories are made 0700 and files 0600
whatever the umask, files are written to a temporary name and published with
``os.replace``, and a directory or file that another user owns or that others
can write is ignored with one warning (anyone who can write it could plant what
shc then reads). What is stored is data, never code: see ``frontend/tables.py``
and ``runtime/jit.py`` for the formats.
"""

from __future__ import annotations

import functools
import os
import stat
import sys
from pathlib import Path

# By its full name: tests/test_code_fingerprint.py loads this file on its own, outside the package.
from shc.compiler.digests import sha256


def cache_dir() -> Path:
    """Where shc keeps generated files: ``$SHC_CACHE_DIR``, else the user cache directory."""
    configured = os.environ.get("SHC_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "shc"


@functools.cache  # once per process
def code_fingerprint() -> str:
    """A hash of shc's own compiler and runtime modules, once per process: where shc is
    installed, and each module's path, size and modification time in nanoseconds (what every
    cache key of compiled output holds).

    The version number alone would let output of an older compiler out of a cache after
    an edit (editable installs, development). An edit gives the file a new modification
    time, so the files' status is enough, and reading 170 ``stat`` results costs a fifth
    of hashing their contents on every start. (A copy that keeps an older time stamp on
    other contents of the same size, ``cp -p`` of another version, would go unnoticed;
    installers, editors and ``git`` write new times.)
    """
    root = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    hasher = sha256(root.encode() + b"\0")  # stdlib/ headers' paths show in diagnostics and reports
    for folder in ("compiler", "runtime"):
        for path in sorted(_python_files(os.path.join(root, folder))):
            info = os.stat(path)
            hasher.update(f"{path[len(root) + 1:]}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    return hasher.hexdigest()[:40]


def package_stamp(package: str, keep) -> str | None:
    """The name, size and modification time of each file of an installed package's folder
    whose name ``keep`` accepts, or None without the package: a version stamp that neither
    imports the package nor reads a file (for libraries whose version is costly to learn)."""
    from importlib.util import find_spec

    spec = find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = spec.submodule_search_locations[0]
    stamps = []
    for name in sorted(os.listdir(folder)):
        if keep(name):
            info = os.stat(os.path.join(folder, name))
            stamps.append(f"{name} {info.st_size} {info.st_mtime_ns}")
    return ", ".join(stamps)


def _python_files(folder: str) -> list[str]:
    """Every ``*.py`` file under ``folder`` (``os.walk``: several times faster than ``Path.rglob``)."""
    return [os.path.join(where, name) for where, _, names in os.walk(folder) for name in names
            if name.endswith(".py")]


_WARNED: set[tuple[str, str]] = set()  # (kind, path) already reported: one warning each per process


def private_directory(path: Path, *, create: bool) -> bool:
    """Whether shc may keep cache files in ``path``.

    It must be a directory owned by the current user that nobody else can write.
    With ``create``, a missing directory (and missing parents) is made 0700. A
    directory that cannot be made or read is silently unusable; one that another
    user owns or others can write is reported once on standard error.
    """
    try:
        if create:
            _make_private_directories(path)
        info = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode):
        return False
    problem = _ownership_problem(info)
    if problem:
        _warn("directory", path, problem)
        return False
    return True


def read_private(path: Path) -> bytes | None:
    """The bytes of the cache file ``path``; None when it is missing, unreadable, not a regular file
    (a symbolic link included) or owned or writable by someone else (reported once)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        handle = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(handle, "rb") as source:
        try:
            info = os.fstat(source.fileno())  # the file opened, not whatever the name means now
            if not stat.S_ISREG(info.st_mode):
                return None
            problem = _ownership_problem(info)
            if problem:
                _warn("file", path, problem)
                return None
            return source.read()
        except OSError:
            return None


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (mode 0600) through a temporary file and ``os.replace``;
    raises OSError (the caller decides that a cache it cannot write only costs speed)."""
    import tempfile  # only writers need it (with random and shutil, 5 ms of a warm kernel load)

    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")  # 0600, O_EXCL
    try:
        with os.fdopen(handle, "wb") as out:
            os.chmod(temporary, 0o600)
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _make_private_directories(path: Path) -> None:
    """Make ``path`` and its missing parents, each 0700 whatever the umask."""
    missing = []
    while not path.exists():
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:  # made by a concurrent process: checked by the caller
            continue
        os.chmod(folder, 0o700)


def _ownership_problem(info: os.stat_result) -> str | None:
    """Why a cache file or directory with this ``stat`` cannot be trusted, or None."""
    if not hasattr(os, "getuid"):  # no POSIX owners (Windows): nothing to check
        return None
    if info.st_uid != os.getuid():
        return f"owned by another user (uid {info.st_uid}, you are uid {os.getuid()})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"writable by other users (mode {stat.S_IMODE(info.st_mode):04o})"
    return None


def _warn(kind: str, path: Path, reason: str) -> None:
    if (kind, str(path)) not in _WARNED:
        _WARNED.add((kind, str(path)))
        print(f"shc: warning: ignoring cache {kind} {path}: {reason}", file=sys.stderr)
