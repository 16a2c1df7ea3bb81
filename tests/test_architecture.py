"""The package layout holds: imports only point down, and no source file is too long to read.

The layer contract itself is ``[tool.importlinter]`` in pyproject.toml (README,
"Architecture"); these tests run it on the tree, and on a copy with an upward import
planted, so a contract that stopped checking anything would fail here too.
"""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 600


def _lint_imports(root: Path, package_parent: Path) -> subprocess.CompletedProcess:
    script = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(config_filename='pyproject.toml'))"
    return subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True,
                          env={"PYTHONPATH": str(package_parent), "PATH": "/usr/bin:/bin"}, timeout=120)


def _copy_package(tmp_path: Path) -> Path:
    """The source tree as an importable ``shc`` package under tmp_path (no tests, no venv)."""
    package = tmp_path / "shc"
    ignore = shutil.ignore_patterns("__pycache__", ".venv", ".git", "tests", "benchmarks", "samples", "*.egg-info")
    shutil.copytree(ROOT, package, ignore=ignore)
    return package


def test_the_layer_contract_holds(tmp_path):
    package = _copy_package(tmp_path)
    result = _lint_imports(package, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 2 kept, 0 broken." in result.stdout


def test_an_upward_import_breaks_the_contract(tmp_path):
    package = _copy_package(tmp_path)
    occupancy = package / "compiler" / "machine" / "rdna2.py"
    occupancy.write_text(occupancy.read_text() + "\nfrom ...runtime import kernel  # noqa\n")
    result = _lint_imports(package, tmp_path)
    assert result.returncode == 1
    assert "shc.compiler.machine is not allowed to import shc.runtime" in result.stdout


def test_back_ends_do_not_import_each_other(tmp_path):
    package = _copy_package(tmp_path)
    listing = package / "compiler" / "backend" / "rdna2" / "listing.py"
    listing.write_text(listing.read_text() + "\nfrom ..host import jit  # noqa\n")
    result = _lint_imports(package, tmp_path)
    assert result.returncode == 1
    assert "the three back ends do not import each other BROKEN" in result.stdout


def test_no_source_file_is_over_the_limit():
    sources = [p for top in ("compiler", "runtime") for p in (ROOT / top).rglob("*.py")]
    sources += [ROOT / "__init__.py", ROOT / "spd.py"]
    assert len(sources) > 100
    lengths = {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in sources}
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}
