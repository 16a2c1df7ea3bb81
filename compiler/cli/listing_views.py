"""What ``shc compile`` shows of an RDNA2 listing besides its text.

- ``--livereg``: every listing line with the VGPRs live there (``backend/rdna2/livereg.py``);
- ``--cfg FILE.dot``: the listing's blocks and edges as Graphviz DOT (``backend/rdna2/cfg_dot.py``);
- ``--stats``: instructions per class (``machine/isa_classes.py``);
- ``--compare-llvm``: the same counts for shc's listing and for LLVM's AMDGPU backend's ISA
  of the same kernel, side by side, classified by the same rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..machine.isa_classes import CLASSES, count_mnemonics, isa_mnemonics


@dataclass(eq=False)  # one of a kind: compared by identity
class ListingViews:
    """Which views of the RDNA2 listing ``shc compile`` was asked for."""

    livereg: bool = False
    cfg: Optional[str] = None
    stats: bool = False
    compare_llvm: bool = False

    @property
    def wanted(self) -> bool:
        return self.livereg or self.cfg is not None or self.stats or self.compare_llvm

    def flags(self) -> str:
        names = [("--livereg", self.livereg), ("--cfg", self.cfg is not None), ("--stats", self.stats),
                 ("--compare-llvm", self.compare_llvm)]
        return ", ".join(name for name, on in names if on)

    def render(self, module, show_listing: bool, source: bool, diagnostics) -> str:
        """The listing (plain, or with live registers) when asked for, then the tables."""
        from ..backend.rdna2.listing import render_listing

        listing = render_listing(module, source=source, sources=diagnostics.sources)
        parts = []
        if self.livereg:
            from ..backend.rdna2.livereg import live_registers, render_livereg

            rows = live_registers(listing.function, listing.vgprs_allocated, listing.vgprs, listing.text)
            parts.append(render_livereg(listing.text, rows))
        elif show_listing:
            parts.append(listing.text)
        if self.cfg is not None:
            write_cfg(self.cfg, listing, module, diagnostics)
        if self.stats:
            parts.append(stats_table({"shc": listing_mnemonics(listing)}))
        if self.compare_llvm:
            parts.append(compare_llvm(module, listing, diagnostics))
        return "\n".join(parts)


def listing_mnemonics(listing) -> list[str]:
    """The mnemonics of an RDNA2 ``Listing``'s instructions, in order."""
    return [inst.mnemonic for inst in listing.function.instructions() if not inst.is_marker]


def stats_table(columns: dict[str, list[str]], title: str = "instructions by class") -> str:
    """One row per class, one column per listing (its mnemonics), the total and the ``s_waitcnt``."""
    counts = {name: count_mnemonics(mnemonics) for name, mnemonics in columns.items()}
    width = max(12, *(len(name) + 2 for name in columns))
    lines = [f"; {title}", f"{'class':<10}" + "".join(f"{name:>{width}}" for name in columns)]
    for name in CLASSES:
        lines.append(f"{name:<10}" + "".join(f"{column[name]:>{width}}" for column in counts.values()))
    lines.append(f"{'total':<10}" + "".join(f"{len(mnemonics):>{width}}" for mnemonics in columns.values()))
    waits = "".join(f"{mnemonics.count('s_waitcnt'):>{width}}" for mnemonics in columns.values())
    lines.append(f"{'s_waitcnt':<10}{waits}")
    return "\n".join(lines) + "\n"


def compare_llvm(module, listing, diagnostics) -> str:
    """shc's counts beside LLVM's for the same kernel and wave size."""
    from ..backend.amdgcn.check import cross_check
    from ..diagnostics import Coord

    figures = cross_check(module)
    if not figures.ok:
        diagnostics.fatal(f"LLVM's AMDGPU backend failed: {figures.message}", Coord(module.source_file, 0, 0))
    wave = module.function.wave_size
    columns = {f"shc wave{wave}": listing_mnemonics(listing), f"LLVM wave{wave}": isa_mnemonics(figures.isa)}
    return stats_table(columns, f"instructions by class: shc and LLVM's AMDGPU backend (gfx1030, wave{wave})")


def write_cfg(path: str, listing, module, diagnostics) -> None:
    from ..backend.rdna2.cfg_dot import cfg_dot
    from ..diagnostics import Coord

    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(cfg_dot(listing.function))
    except OSError as failure:
        diagnostics.fatal(f"cannot write '{path}': {failure.strerror or failure}", Coord(module.source_file, 0, 0))
