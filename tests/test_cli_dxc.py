"""DXC's spellings of shc's options, as a user types them: -T, -HV, -enable-16bit-types,
-Fo/-o, -Fc, -WX, -Wno-<group> and -h, on check, compile and regs.

Most tests run the typer app in-process (CliRunner); the ``-Wno-`` and help tests also start
the installed script, whose argv goes through the same group.
"""

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shc.compiler import cli

SCRIPT = Path(sys.executable).with_name("shc")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "shc.compiler.cli"]

KERNEL = """\
RWStructuredBuffer<float> output : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    output[id.x] = WaveActiveSum(id.x * 0.5);
}
"""

WARNS = """\
#define N 4
[numthreads(1, 1, 1)]
void main()
{
    float4 v = N;
    float2 w = v;
}
"""


def invoke(*args, cwd=None):
    return CliRunner().invoke(cli.app, [str(a) for a in args])


@pytest.fixture
def kernel(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def write(text=KERNEL, name="k.hlsl"):
        (tmp_path / name).write_text(text)
        return name
    return write


@pytest.mark.parametrize("command", ["check", "compile", "regs"])
def test_h_is_help(command):
    result = invoke(command, "-h")
    assert result.exit_code == 0
    assert "-T" in result.stdout and "-WX" in result.stdout and "-HV" in result.stdout


def test_h_on_the_app_and_from_the_script():
    assert "Commands" in invoke("-h").stdout
    result = subprocess.run(COMMAND + ["compile", "-h"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "-Fc" in result.stdout


@pytest.mark.parametrize("profile", ["cs_6_0", "cs_6_6", "cs_6_8"])
def test_compute_profiles_compile(kernel, profile):
    result = invoke("check", kernel(), "-T", profile)
    assert (result.exit_code, result.stderr) == (0, "")


@pytest.mark.parametrize("command", ["check", "compile", "regs"])
@pytest.mark.parametrize("profile, words", [
    ("ps_6_0", "profile 'ps_6_0' is not a compute profile"),
    ("lib_6_6", "profile 'lib_6_6' is not a compute profile"),
    ("cs_6_9", "unknown shader model 6.9 in 'cs_6_9'"),
    ("banana", "unknown profile 'banana'"),
])
def test_other_profiles_are_errors(kernel, command, profile, words):
    result = invoke(command, kernel(), "-T", profile)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"shc: error: {words}")
    assert result.stdout == ""


def test_the_model_gates_wave_size(kernel):
    path = kernel(KERNEL.replace("[numthreads", "[WaveSize(32)]\n[numthreads"))
    result = invoke("compile", path, "-T", "cs_6_5")
    assert result.exit_code == 1
    assert result.stderr == (
        "k.hlsl:3:2: error: [WaveSize] requires shader model 6.6 or later (-T cs_6_5 was given)\n"
        "[WaveSize(32)]\n"
        " ^\n"
    )
    assert invoke("compile", path, "-T", "cs_6_6").exit_code == 0


def test_16_bit_types(kernel):
    path = kernel(KERNEL.replace("output[id.x] =", "float16_t h = 1;\n    output[id.x] = h +"))
    assert invoke("check", path, "-enable-16bit-types").exit_code == 0
    below = invoke("check", path, "-T", "cs_6_1")
    assert below.exit_code == 1
    assert "k.hlsl:6:5: error: 16-bit type 'float16_t' requires shader model 6.2 or later" in below.stderr
    flag = invoke("check", path, "-T", "cs_6_1", "-enable-16bit-types")
    assert flag.exit_code == 1
    assert flag.stderr == "shc: error: -enable-16bit-types requires shader model 6.2 or later (-T cs_6_1 was given)\n"


def test_hlsl_versions(kernel):
    path = kernel(KERNEL.replace("output[id.x] =", "float2 v = id.xy;\n    output[id.x] = (v > 1 ? v : -v).x +"))
    result = invoke("check", path)
    assert result.exit_code == 1
    assert "use 'select'" in result.stderr
    assert invoke("check", path, "-HV", "2018").exit_code == 0
    bad = invoke("check", path, "-HV", "2017")
    assert (bad.exit_code, bad.stderr) == (1, "shc: error: invalid -HV value '2017' (expected 2018 or 2021)\n")


def test_fo_and_fc_write_files_and_nothing_on_stdout(kernel, tmp_path):
    path = kernel()
    printed = invoke("compile", path, "--target", "rdna2").stdout
    result = invoke("compile", path, "-T", "cs_6_6", "-Fc", "k.s", "-Fo", "k.ir")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert (tmp_path / "k.s").read_text() == printed
    assert (tmp_path / "k.ir").read_text() == invoke("compile", path).stdout
    alone = invoke("compile", path, "-Fc", "only.s")
    assert (alone.exit_code, alone.stdout) == (0, "")
    assert (tmp_path / "only.s").read_text() == printed


def test_o_writes_the_emitted_text(kernel, tmp_path):
    path = kernel()
    result = invoke("compile", path, "--emit", "ast", "-o", "k.ast")
    assert (result.exit_code, result.stdout) == (0, "")
    assert (tmp_path / "k.ast").read_text().startswith("TranslationUnit")


def test_regs_report_to_a_file(kernel, tmp_path):
    path = kernel()
    result = invoke("regs", path, "--no-llvm", "--json", "-Fo", "regs.json", "-q")
    assert (result.exit_code, result.stdout) == (0, "")
    assert '"kernels"' in (tmp_path / "regs.json").read_text()


def test_an_unwritable_output_is_an_error(kernel):
    result = invoke("compile", kernel(), "-Fo", "no/such/dir/k.ir")
    assert result.exit_code == 1
    assert result.stderr.startswith("shc: error: cannot write 'no/such/dir/k.ir'")


def test_warning_groups_are_shown(kernel):
    result = invoke("check", kernel(WARNS), "-D", "N=8")
    assert result.exit_code == 0
    heads = [line for line in result.stderr.splitlines() if ": warning: " in line or ": note: " in line]
    assert heads == [
        "k.hlsl:1:9: warning: 'N' macro redefined [-Wmacro-redefined]",
        "<command line>:1:9: note: previous definition is here",
        "k.hlsl:6:16: warning: implicit truncation of vector type ('float4' to 'float2') [-Wconversion]",
    ]


def test_wno_silences_a_group(kernel):
    path = kernel(WARNS)
    result = invoke("check", path, "-D", "N=8", "-Wno-macro-redefined", "-Wno-conversion")
    assert (result.exit_code, result.stderr) == (0, "")
    script = subprocess.run(COMMAND + ["check", path, "-Wno-conversion"], capture_output=True, text=True,
                            timeout=120)
    assert (script.returncode, script.stderr) == (0, "")


def test_an_unknown_wno_group_is_a_warning(kernel):
    result = invoke("check", kernel(), "-Wno-bogus")
    assert result.exit_code == 0
    assert result.stderr == "shc: warning: unknown warning option '-Wno-bogus' [-Wunknown-warning-option]\n"


def test_wx_makes_warnings_errors(kernel):
    path = kernel(WARNS)
    result = invoke("compile", path, "-WX")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("k.hlsl:6:16: error: implicit truncation of vector type ('float4' to 'float2') "
                                    "[-Werror,-Wconversion]\n")
    assert invoke("compile", path, "-WX", "-Wno-conversion").exit_code == 0


def test_too_many_errors(kernel):
    body = "".join(f"    x{i} = ;\n" for i in range(30))
    result = invoke("check", kernel(f"[numthreads(1, 1, 1)]\nvoid main()\n{{\n{body}}}\n"))
    assert result.exit_code == 1
    assert result.stderr.count(": error: ") == 20
    assert result.stderr.endswith("note: too many errors emitted, stopping now\n")
