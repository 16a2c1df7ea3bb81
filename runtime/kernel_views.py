"""What a compiled kernel and an SPD result show of themselves: reports and notebook HTML.

    k.report()                     # compiler/report.py KernelReport: wave32 and wave64 figures, hot lines
    k.live_registers(wave_size=32) # backend/rdna2/livereg.py LiveRow per listing instruction
    k._repr_html_()                # Jupyter: the register table and the listing, collapsed
    result._repr_html_()           # an SpdResult: the contact sheet as an inline PNG and the mips

The kernel's own source is compiled again for these (the disk cache keeps the host code,
not the IR), so they cost a compile: about what ``k.listing`` costs.
"""

from __future__ import annotations

import base64
import html
from dataclasses import replace

__all__ = ["kernel_html", "kernel_report", "live_rows", "spd_result_html"]


def _source_of(kernel):
    if kernel._source is None:
        raise RuntimeError("this kernel was built without its source: no register report to give")
    return kernel._source


def kernel_report(kernel, lines: int = 5, llvm: bool = True, llvm_demand: bool = False):
    """``shc regs`` of ``kernel``: a ``KernelReport`` (``.waves[32]``, ``.to_dict()``, ``.to_json()``).

    ``llvm`` adds LLVM's AMDGPU figures (compiled in a child process, a few seconds)."""
    from ..compiler.diagnostics import CompileError, Diagnostics
    from ..compiler.pipeline import Options
    from ..compiler.report import build_report
    from .kernel import KernelCompileError

    source = _source_of(kernel)
    options = Options(entry=source.entry, defines=dict(source.defines), include_dirs=list(source.include_dirs),
                      hlsl_version=source.hlsl_version)
    diagnostics = Diagnostics()
    try:
        return build_report(source.text, source.filename, options, diagnostics, lines, llvm or llvm_demand,
                            llvm_demand)
    except CompileError as failure:
        raise KernelCompileError(failure.diagnostics, diagnostics.render()) from None


def _listing_of(kernel, wave_size: int | None):
    """The ``Listing`` of ``kernel`` at ``wave_size`` (its own by default), rendered as ``k.listing`` is."""
    from ..compiler.backend.rdna2.listing import render_listing
    from ..compiler.diagnostics import Diagnostics, SourceCache
    from .kernel import _front_and_middle

    source = _source_of(kernel)
    if wave_size is None or wave_size == kernel.wave_size:
        module = kernel.module
    else:
        if wave_size not in (32, 64):
            raise ValueError(f"wave_size must be 32 or 64, not {wave_size}")
        module, _ = _front_and_middle(replace(source, wave_size=wave_size), Diagnostics())
    sources = SourceCache()
    sources.add(source.filename, source.text)
    return render_listing(module, source=True, sources=sources)


def live_rows(kernel, wave_size: int | None = None) -> list:
    """One ``LiveRow`` per instruction: its line in the listing text, the instruction, how many
    VGPRs it holds and which (a ``[WaveSize(n)]`` kernel is always compiled for n)."""
    from ..compiler.backend.rdna2.livereg import live_registers

    listing = _listing_of(kernel, wave_size)
    return live_registers(listing.function, listing.vgprs_allocated, listing.vgprs, listing.text).rows


_ROWS = (
    ("VGPRs used / allocated", lambda w: f"{w.listing.vgprs} / {w.listing.vgprs_allocated}"),
    ("SGPRs", lambda w: str(w.listing.sgprs)),
    ("LDS bytes", lambda w: str(w.listing.lds_bytes)),
    ("scratch bytes per lane", lambda w: str(w.listing.scratch_bytes)),
    ("occupancy (waves per SIMD)", lambda w: f"{w.listing.occupancy} ({w.listing.limiter})"),
)


def kernel_html(kernel) -> str:
    """The register table (wave32 and wave64) and the kernel's listing in a ``<details>``."""
    esc = html.escape
    report = kernel_report(kernel, llvm=False)
    sizes = sorted(report.waves)
    x, y, z = kernel.numthreads
    parts = [f"<div><p><b>shc kernel</b> <code>{esc(kernel.entry)}</code>, numthreads({x}, {y}, {z}), "
             f"wave{kernel.wave_size}</p>", "<table>",
             "<tr><th></th>" + "".join(f"<th>wave{size}</th>" for size in sizes) + "</tr>"]
    for name, cell in _ROWS:
        parts.append(f"<tr><th>{esc(name)}</th>" + "".join(f"<td>{esc(cell(report.waves[size]))}</td>"
                                                            for size in sizes) + "</tr>")
    parts.append("</table>")
    listing = report.waves[kernel.wave_size].listing.text if kernel.wave_size in report.waves else kernel.listing
    parts.append(f"<details><summary>RDNA2 listing (wave{kernel.wave_size})</summary>"
                 f"<pre>{esc(listing)}</pre></details></div>")
    return "\n".join(parts)


def spd_result_html(result) -> str:
    """The contact sheet (source and mips, one row per slice) as an inline PNG, and a table of the mips."""
    import numpy as np

    from .spd_command import SpdInputError, chain_sheet, png_bytes

    esc = html.escape
    parts = ["<div>"]
    if result.mips:
        source, mips = (result.source, result.mips) if result.source is not None else (result.mips[0], result.mips[1:])
        try:
            data = base64.b64encode(png_bytes(chain_sheet(source, mips))).decode("ascii")
            parts.append(f'<img alt="SPD mip chain" src="data:image/png;base64,{data}"/>')
        except SpdInputError as failure:  # no Pillow: the table alone
            parts.append(f"<p>{esc(str(failure))}</p>")
    parts.append("<table><tr><th>mip</th><th>size</th><th>dtype</th><th>mean</th></tr>")
    for number, mip in enumerate(result.mips, start=1):
        size = " x ".join(str(n) for n in mip.shape)
        mean = float(np.mean(mip, dtype=np.float64)) if mip.size else 0.0
        parts.append(f"<tr><td>{number}</td><td>{esc(size)}</td><td>{esc(str(mip.dtype))}</td>"
                     f"<td>{mean:.4g}</td></tr>")
    parts.append("</table>")
    setup = result.setup
    parts.append(f"<p>dispatch {' x '.join(map(str, setup.dispatch))} groups, {setup.mips} mips</p></div>")
    return "\n".join(parts)
