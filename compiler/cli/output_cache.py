"""What ``shc compile`` and ``shc regs FILE`` printed, kept on disk: the same command on
unchanged sources prints it again without compiling (ccache's idea).

    recording = OutputCache("compile", ctx.params, file)
    if recording.replay(output):       # a hit: the diagnostics and the output, printed again
        return
    ... run_stage(file, work, flags, recording) ...   # collects the diagnostics and the files read
    recording.store(text)              # only after a run that succeeded

The key hashes everything the output depends on: the command and every option as
parsed, the working directory (paths are shown relative to it), the main file's
text, shc's own modules (``cache_files.code_fingerprint``: each one's path, size and
modification time), the versions of Python, PLY and llvmlite (LLVM's figures in
``shc regs``) and pcpp's modules' sizes and times. An entry also lists every other file the preprocessor read,
with the sha256 of its text; a hit reads and hashes them again, so editing an
included header is a miss. (As in the kernel cache, a header that newly appears
earlier on the include path than the one read before is not noticed.)

Only a run that succeeded is stored: its output text and the diagnostics (warnings)
it printed, which a hit prints again on stderr before the output. A failing run, an
internal error or an interrupted one stores nothing. An entry is
``cli/<key>.json``, JSON data read and written under ``compiler/cache_files.py``'s
rules; one that is malformed is a miss and is written again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from typing import Any

from ..cache_files import cache_dir, code_fingerprint, package_stamp, private_directory, read_private, write_private
from ..diagnostics import RecordingSources, SourceFileError, read_source_bytes, source_unchanged

FORMAT = 1  # bump when an entry's layout or what a key holds changes


class OutputCache:
    """One command's entry: looked up with ``replay``, written with ``store``."""

    def __init__(self, command: str, params: dict[str, Any], main_file: str):
        self.main_file = os.path.abspath(main_file)
        self.sources = RecordingSources()  # given to run_stage: its Diagnostics record the files read
        self.diagnostics: list[str] = []  # what run_stage printed on stderr, in order
        self.key = _key(command, params, main_file)

    @property
    def _path(self):
        return cache_dir() / "cli" / f"{self.key}.json"

    def replay(self, write) -> bool:
        """On a hit, print the stored diagnostics to stderr and pass the stored output to
        ``write``; True then. False (nothing printed) on a miss or without a key."""
        if self.key is None or not private_directory(self._path.parent, create=False):
            return False
        entry = _entry(read_private(self._path))
        if entry is None or not all(source_unchanged(path, sha) for path, sha in entry["dependencies"]):
            return False
        for text in entry["diagnostics"]:
            print(text, file=sys.stderr)
        write(entry["output"])
        return True

    def store(self, output: str) -> None:
        """Keep ``output`` and the diagnostics printed on the way (best effort)."""
        if self.key is None:
            return
        dependencies = [list(pair) for pair in self.sources.dependencies(self.main_file)]
        entry = {"format": FORMAT, "dependencies": dependencies, "diagnostics": self.diagnostics, "output": output}
        folder = self._path.parent
        try:
            if private_directory(folder.parent, create=True) and private_directory(folder, create=True):
                write_private(self._path, json.dumps(entry, separators=(",", ":")).encode("utf-8"))
        except OSError:
            pass  # a read-only or full cache directory only costs speed


def _key(command: str, params: dict[str, Any], main_file: str) -> str | None:
    """The hash of what the output depends on (None when the main file cannot be read:
    the command then runs and reports that as usual)."""
    import llvmlite  # the package's version: the LLVM library is not loaded here
    import ply

    try:
        text = read_source_bytes(main_file)  # a regular file within the size limit: never a FIFO's wait
    except (OSError, SourceFileError):
        return None
    options = repr(sorted(params.items()))
    hasher = hashlib.sha256("\0".join([
        str(FORMAT), command, options, os.getcwd(), os.path.abspath(main_file), code_fingerprint(), sys.version,
        ply.__version__, package_stamp("pcpp", _is_module) or "no pcpp", llvmlite.__version__, ""]).encode("utf-8"))
    hasher.update(text)
    return hasher.hexdigest()[:40]


def _is_module(name: str) -> bool:
    return name.endswith(".py")  # pcpp's version would cost an import of pcpp


def _entry(data: bytes | None) -> dict | None:
    """The entry in ``data`` if it has the shape ``store`` writes, else None."""
    if data is None:
        return None
    try:
        entry = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(entry, dict) and entry.get("format") == FORMAT and isinstance(entry.get("output"), str)
            and isinstance(entry.get("diagnostics"), list)
            and all(isinstance(text, str) for text in entry["diagnostics"])
            and isinstance(entry.get("dependencies"), list)
            and all(isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair)
                    for pair in entry["dependencies"])):
        return None
    return entry
