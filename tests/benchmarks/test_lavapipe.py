"""The optional lavapipe peer (benchmarks/lavapipe.py) says what is missing instead of failing:
the benchmark table prints that in its lavapipe row when the tools are not installed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _lavapipe(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # lavapipe.py imports common_kernels beside it
    spec = importlib.util.spec_from_file_location("lavapipe", BENCHMARKS / "lavapipe.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_missing_names_every_absent_piece(monkeypatch):
    lavapipe = _lavapipe(monkeypatch)
    monkeypatch.setattr(lavapipe.shutil, "which", lambda name: None)
    monkeypatch.setattr(lavapipe.ctypes.util, "find_library", lambda name: None)
    monkeypatch.setattr(lavapipe.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(lavapipe.os.path, "exists", lambda path: False)
    assert lavapipe.missing() == "glslangValidator, gcc, Vulkan headers, libvulkan, lavapipe ICD"


def test_missing_is_empty_when_everything_is_there(monkeypatch, tmp_path):
    lavapipe = _lavapipe(monkeypatch)
    icd = tmp_path / "lvp_icd.x86_64.json"
    icd.write_text("{}")
    monkeypatch.setattr(lavapipe.shutil, "which", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(lavapipe.ctypes.util, "find_library", lambda name: f"lib{name}.so.1")
    monkeypatch.setattr(lavapipe, "ICD_FOLDERS", (str(tmp_path),))
    monkeypatch.setattr(lavapipe.os.path, "exists", lambda path: True)
    assert lavapipe.missing() == ""
