"""shc's RDNA2 listings beside LLVM's AMDGPU backend: instructions, VGPRs and SGPRs of every
sample and every SPD option set, at wave32 and wave64.

Run: python benchmarks/code_quality.py [--wave 32,64] [--json OUT.json] [--baseline OLD.json] [-j N]
One row per kernel and wave size (a kernel that fixes its wave size with [WaveSize(n)] has one
row): shc's and LLVM's static instruction counts and their ratio, then VGPRs used/allocated and
SGPRs of each. The totals row sums the instructions. ``--baseline`` adds each row's change of
shc's figures against an earlier ``--json``. LLVM's assembly is cached on disk, so a second run
only compiles shc's side again.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT.parent))

SPD = "samples/spd.hlsl"


def kernels() -> list[tuple[str, dict[str, str]]]:
    """(file, defines) of every sample, then SPD's seven other option sets."""
    from shc.runtime.spd import defines_for

    rows = [(f"samples/{path.name}", {}) for path in sorted((ROOT / "samples").glob("*.hlsl"))]
    for wave_ops, linear, packed in itertools.product((True, False), repeat=3):
        defines = defines_for(wave_ops, linear, packed)
        if defines:
            rows.append((SPD, defines))
    return rows


def measure(job: tuple[str, dict[str, str], int]) -> dict | None:
    """One row, or None when the kernel fixes another wave size."""
    from shc.compiler.backend.amdgcn.check import cross_check
    from shc.compiler.backend.rdna2.listing import render_listing
    from shc.compiler.diagnostics import Diagnostics
    from shc.compiler.machine.isa_classes import isa_mnemonics
    from shc.compiler.pipeline import Options, compile_file

    path, defines, wave = job
    module = compile_file(str(ROOT / path), Options(defines=defines, wave_size=wave), Diagnostics())
    if module.function.wave_size != wave:
        return None
    listing = render_listing(module)
    llvm = cross_check(module)
    row = {"file": path, "defines": " ".join(sorted(defines)) or "-", "wave": wave,
           "shc": sum(1 for inst in listing.function.instructions() if not inst.is_marker),
           "shc_vgprs": listing.vgprs, "shc_allocated": listing.vgprs_allocated, "shc_sgprs": listing.sgprs}
    if llvm.ok:
        row.update(llvm=len(isa_mnemonics(llvm.isa)), llvm_vgprs=llvm.vgprs, llvm_sgprs=llvm.sgprs)
    return row


def table(rows: list[dict], baseline: dict | None) -> str:
    def key(row):
        return row["file"], row["defines"], row["wave"]

    old = {key(row): row for row in baseline or []}
    head = (f"{'kernel':<34}{'defines':<50}{'wave':>5}{'shc':>7}{'LLVM':>7}{'ratio':>7}"
            f"{'VGPRs shc':>11}{'LLVM':>6}{'SGPRs shc':>11}{'LLVM':>6}")
    lines = [head]
    for row in rows:
        llvm = row.get("llvm")
        ratio = f"{row['shc'] / llvm:.3f}" if llvm else "-"
        change = ""
        if key(row) in old:
            was = old[key(row)]
            change = (f"  (was {was['shc']}, {was['shc_vgprs']}/{was['shc_allocated']}, {was['shc_sgprs']})"
                      if (was["shc"], was["shc_allocated"], was["shc_sgprs"], was["shc_vgprs"]) !=
                      (row["shc"], row["shc_allocated"], row["shc_sgprs"], row["shc_vgprs"]) else "")
        lines.append(f"{Path(row['file']).name:<34}{row['defines']:<50}{row['wave']:>5}{row['shc']:>7}"
                     f"{llvm or '-':>7}{ratio:>7}{row['shc_vgprs']:>6}/{row['shc_allocated']:<4}"
                     f"{row.get('llvm_vgprs', '-'):>6}{row['shc_sgprs']:>11}{row.get('llvm_sgprs', '-'):>6}{change}")
    for wave in sorted({row["wave"] for row in rows}):
        at = [row for row in rows if row["wave"] == wave and row.get("llvm")]
        shc, llvm = sum(row["shc"] for row in at), sum(row["llvm"] for row in at)
        lines.append(f"{'total':<34}{'':<50}{wave:>5}{shc:>7}{llvm:>7}{shc / llvm:>7.3f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wave", default="32,64")
    parser.add_argument("--json", dest="json_out")
    parser.add_argument("--baseline")
    parser.add_argument("-j", type=int, default=1)
    args = parser.parse_args()
    jobs = [(path, defines, int(wave)) for wave in args.wave.split(",") for path, defines in kernels()]
    with ProcessPoolExecutor(args.j) as pool:
        rows = [row for row in pool.map(measure, jobs) if row is not None]
    baseline = json.loads(Path(args.baseline).read_text()) if args.baseline else None
    print(table(rows, baseline))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
