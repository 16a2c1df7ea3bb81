"""`shc regs` sweeps: files x --permute defines x wave sizes as rows (table, JSON, CSV), a process
pool, failing files as rows, the --baseline regression check, and a Dask cluster.

The commands run in-process (tests/cli_runner.py), except where the process is the point: the
progress display on a terminal, and the sweep that talks to a Dask cluster."""

import csv
import io
import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from shc.compiler import cli
from shc.compiler.machine.rdna2 import vgprs_allocated

sys.path.insert(0, os.path.dirname(__file__))
import cli_runner  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
SHC = [sys.executable, "-m", "shc.compiler.cli"]

# WIDE keeps three float4 loads alive at once; without it one float4 is scaled.
SCALE = """
StructuredBuffer<float4> a : register(t0);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(64, 1, 1)]
void main(uint i : SV_DispatchThreadID) {
#ifdef WIDE
    float4 x = a[i];
    float4 y = a[i + 1];
    float4 z = a[i + 2];
    o[i] = x * y + z;
#else
    o[i] = a[i] * SCALE_BY;
#endif
}
"""


def shc(*args, cwd=ROOT):
    return cli_runner.shc(*args, cwd=cwd)


def small_samples(tmp_path) -> Path:
    """A copy of two small kernels: occupancy_light.hlsl and a kernel with a WIDE switch."""
    folder = tmp_path / "samples"
    folder.mkdir()
    shutil.copy(SAMPLES / "occupancy_light.hlsl", folder)
    (folder / "scale.hlsl").write_text(SCALE)
    (folder / "notes.txt").write_text("not a shader")
    return folder


def test_a_sweep_is_every_file_define_set_and_wave_size_in_a_process_pool(tmp_path):
    folder = small_samples(tmp_path)
    done = shc("regs", folder, "--permute", "WIDE=-,1", "-D", "SCALE_BY=2", "--wave-size", "32,64",
               "--jobs", "2", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    light, scale = f"{folder}/occupancy_light.hlsl", f"{folder}/scale.hlsl"
    assert [(row["file"], row["defines"], row["wave"]) for row in rows] == [
        (light, {}, 32), (light, {}, 64), (light, {"WIDE": "1"}, 32), (light, {"WIDE": "1"}, 64),
        (scale, {}, 32), (scale, {}, 64), (scale, {"WIDE": "1"}, 32), (scale, {"WIDE": "1"}, 64)]
    for row in rows:
        assert row["error"] is None
        assert row["vgprs_allocated"] == vgprs_allocated(row["vgprs"], row["wave"])
        assert row["limiter"] in ("vgprs", "lds", "waves") and 1 <= row["occupancy"] <= 16
        assert "llvm_vgprs" not in row  # no LLVM unless --llvm
    narrow, wide = rows[4], rows[6]
    assert wide["vgprs"] >= narrow["vgprs"] + 8  # two more float4 values alive
    # the same rows as a table and as CSV
    table = shc("regs", folder, "--permute", "WIDE=-,1", "-D", "SCALE_BY=2")
    lines = table.stdout.splitlines()
    assert lines[0].split() == ["file", "defines", "wave", "vgprs", "allocated", "sgprs", "lds", "scratch",
                                "occupancy", "limiter"]
    assert lines[7].split()[:4] == [scale, "WIDE=1", "32", str(wide["vgprs"])]
    as_csv = shc("regs", folder, "--permute", "WIDE=-,1", "-D", "SCALE_BY=2", "--csv")
    records = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert len(records) == 8 and records[6]["defines"] == "WIDE=1"
    assert records[6]["allocated"] == str(wide["vgprs_allocated"])


def test_llvm_figures_join_the_rows_only_when_asked():
    done = shc("regs", "samples/prefix_sum.hlsl", "samples/compaction.hlsl", "--wave-size", "32", "--llvm", "--csv")
    assert done.returncode == 0, done.stderr
    records = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [record["file"] for record in records] == ["samples/prefix_sum.hlsl", "samples/compaction.hlsl"]
    for record in records:
        assert int(record["llvm vgprs"]) > 0 and 1 <= int(record["llvm occupancy"]) <= 16


def test_a_file_that_fails_is_a_row_and_the_exit_code(tmp_path):
    folder = small_samples(tmp_path)
    done = shc("regs", folder, "--wave-size", "64", "--json")  # SCALE_BY undefined: scale.hlsl fails
    assert done.returncode == 1
    rows = json.loads(done.stdout)
    assert [row["file"].rsplit("/", 1)[1] for row in rows] == ["occupancy_light.hlsl", "scale.hlsl"]
    assert rows[0]["error"] is None and rows[0]["vgprs"] > 0
    assert "use of undeclared identifier 'SCALE_BY'" in rows[1]["error"]
    assert f"{folder}/scale.hlsl wave64: failed to compile" in done.stderr
    table = shc("regs", folder, "--wave-size", "64")
    assert table.returncode == 1
    assert table.stdout.splitlines()[2].split()[:4] == [f"{folder}/scale.hlsl", "-", "64", "error"]


def test_the_baseline_check_fails_when_a_sample_gets_heavier(tmp_path):
    folder = small_samples(tmp_path)
    sweep = ["regs", folder, "--permute", "WIDE=-,1", "-D", "SCALE_BY=2", "--jobs", "2"]
    first = shc(*sweep, "--json")
    assert first.returncode == 0, first.stderr
    baseline = tmp_path / "baseline.json"
    baseline.write_text(first.stdout)
    same = shc(*sweep, "--baseline", baseline)
    assert same.returncode == 0, same.stderr
    assert same.stderr == f"no regressions against {baseline} (8 rows)\n"

    # the light sharpen becomes the heavy one: every tap alive at once
    shutil.copy(SAMPLES / "occupancy_heavy.hlsl", folder / "occupancy_light.hlsl")
    heavier = shc(*sweep, "--baseline", baseline, "--json")
    assert heavier.returncode == 1
    old = {(row["file"], json.dumps(row["defines"]), row["wave"]): row for row in json.loads(first.stdout)}
    new = json.loads(heavier.stdout)
    row = next(r for r in new if r["file"].endswith("light.hlsl") and r["wave"] == 64 and not r["defines"])
    before = old[(row["file"], "{}", 64)]
    assert row["vgprs_allocated"] > before["vgprs_allocated"] and row["occupancy"] < before["occupancy"]
    assert (f"regression: {folder}/occupancy_light.hlsl wave64: VGPRs allocated {before['vgprs_allocated']} -> "
            f"{row['vgprs_allocated']}, occupancy {before['occupancy']} -> {row['occupancy']} waves/SIMD "
            f"(limited by vgprs)") in heavier.stderr.splitlines()
    assert f"regression: {folder}/occupancy_light.hlsl [WIDE=1] wave64:" in heavier.stderr
    assert "scale.hlsl" not in heavier.stderr  # unchanged rows are not mentioned

    # rows only one side has are notes, not failures
    (folder / "occupancy_light.hlsl").unlink()
    (folder / "extra.hlsl").write_text(SCALE)
    fewer = shc(*sweep, "--baseline", baseline)
    assert fewer.returncode == 0, fewer.stderr
    assert f"note: {folder}/extra.hlsl [WIDE=1] wave32: new row (not in the baseline)" in fewer.stderr
    assert f"note: {folder}/occupancy_light.hlsl wave64: in the baseline, not in this sweep" in fewer.stderr


def test_one_file_keeps_the_detailed_report_and_gives_csv_rows():
    table = shc("regs", "samples/prefix_sum.hlsl", "--no-llvm")
    assert table.returncode == 0 and "source lines with the most live VGPRs" in table.stdout
    only64 = shc("regs", "samples/prefix_sum.hlsl", "--no-llvm", "--json", "--wave-size", "64")
    assert list(json.loads(only64.stdout)["kernels"][0]["waves"]) == ["64"]
    rows = list(csv.reader(io.StringIO(shc("regs", "samples/prefix_sum.hlsl", "--csv").stdout)))
    assert rows[0][:3] == ["file", "defines", "wave"]
    assert [row[:3] for row in rows[1:]] == [["samples/prefix_sum.hlsl", "-", "32"],
                                             ["samples/prefix_sum.hlsl", "-", "64"]]


def test_usage_errors_are_cli_messages(tmp_path):
    cases = {
        ("regs", "samples", "nowhere/"): "shc: error: nowhere/: no such file or directory\n",
        ("regs", "samples", "--permute", "WIDE"): "shc: error: --permute expects NAME=VALUE,VALUE..., not 'WIDE'\n",
        ("regs", "samples", "--wave-size", "16"): "shc: error: --wave-size takes 32, 64 or 32,64, not '16'\n",
        ("regs", "samples", "--json", "--csv"): "shc: error: --json and --csv are two output formats: choose one\n",
        ("regs", "samples", "--baseline", tmp_path / "none.json"):
            f"shc: error: cannot read --baseline {tmp_path}/none.json: No such file or directory\n",
    }
    for args, message in cases.items():
        done = shc(*args)
        assert (done.returncode, done.stdout, done.stderr) == (1, "", message), args


def test_progress_shows_on_a_terminal_only_and_not_with_quiet(tmp_path):
    folder = small_samples(tmp_path)

    def stderr_on_a_terminal(*extra):
        main, secondary = pty.openpty()
        done = subprocess.run([*SHC, "regs", str(folder), "-D", "SCALE_BY=2", *extra], stdout=subprocess.PIPE,
                              stderr=secondary, timeout=600, cwd=ROOT, env=dict(os.environ, COLUMNS="100"))
        os.close(secondary)
        seen = b""
        try:
            while chunk := os.read(main, 4096):
                seen += chunk
        except OSError:  # the terminal's other side is closed
            pass
        os.close(main)
        assert done.returncode == 0
        return seen.decode(errors="replace")

    assert "compiling" in stderr_on_a_terminal()
    assert stderr_on_a_terminal("--quiet") == ""
    assert shc("regs", folder, "-D", "SCALE_BY=2").stderr == ""  # not a terminal


def test_a_sweep_on_a_dask_cluster(tmp_path):
    from distributed import LocalCluster

    folder = small_samples(tmp_path)
    local = shc("regs", folder, "-D", "SCALE_BY=2", "--permute", "WIDE=-,1", "--json")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        # a process of its own: Dask's client keeps state in the process that makes it
        remote = subprocess.run([*SHC, "regs", str(folder), "-D", "SCALE_BY=2", "--permute", "WIDE=-,1", "--json",
                                 "--scheduler", cluster.scheduler_address], capture_output=True, text=True,
                                timeout=600, cwd=ROOT)
    assert remote.returncode == 0, remote.stderr
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_without_distributed_the_scheduler_option_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    folder = small_samples(tmp_path)
    result = CliRunner().invoke(cli.app, ["regs", str(folder), "--scheduler", "tcp://127.0.0.1:1"])
    assert result.exit_code == 1
    assert result.stderr == ("shc: error: --scheduler needs Dask's distributed scheduler: "
                             "pip install 'shc[distributed]'\n")


def test_a_sweep_compiles_for_the_shader_model_and_language_given(tmp_path):
    folder = tmp_path / "kernels"
    folder.mkdir()
    (folder / "sized.hlsl").write_text("RWStructuredBuffer<uint> o;\n[WaveSize(32)] [numthreads(32, 1, 1)]\n"
                                       "void main(uint i : SV_GroupIndex) { o[i] = WaveActiveSum(i); }\n")
    (folder / "ternary.hlsl").write_text("RWStructuredBuffer<uint2> o;\n[numthreads(32, 1, 1)]\n"
                                         "void main(uint i : SV_GroupIndex) { o[i] = (uint2(i, 1) > 3) ? 1u : 2u; }\n")
    rows = {row["file"].rsplit("/", 1)[1]: row for row in json.loads(shc("regs", folder, "--json").stdout)}
    assert rows["sized.hlsl"]["error"] is None
    assert "select" in rows["ternary.hlsl"]["error"]  # HLSL 2021: a vector condition is an error
    done = shc("regs", folder, "--json", "-T", "cs_6_5", "-HV", "2018")
    assert done.returncode == 1
    rows = {row["file"].rsplit("/", 1)[1]: row for row in json.loads(done.stdout)}
    assert "requires shader model 6.6" in rows["sized.hlsl"]["error"]
    assert rows["ternary.hlsl"]["error"] is None
