"""`k.report()`, `k.live_registers()` and the notebook reprs of a kernel and of an SPD result."""

import base64
import io
import json
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
from PIL import Image

import shc
from shc.compiler.backend.rdna2.livereg import LiveRow
from shc.compiler.report import KernelReport

SAMPLES = Path(__file__).resolve().parent.parent.parent / "samples"


class Tree(HTMLParser):
    """Elements as (tag, attributes, text inside, children) with the text unescaped."""

    def __init__(self):
        super().__init__()
        self.root = ["root", {}, [], []]
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        element = [tag, dict(attrs), [], []]
        self.stack[-1][3].append(element)
        if tag not in ("img", "br"):
            self.stack.append(element)

    def handle_startendtag(self, tag, attrs):  # <img ... />
        self.stack[-1][3].append([tag, dict(attrs), [], []])

    def handle_endtag(self, tag):
        assert self.stack[-1][0] == tag, (tag, self.stack[-1][0])
        self.stack.pop()

    def handle_data(self, data):
        for element in self.stack:
            element[2].append(data)


def parse(text: str):
    tree = Tree()
    tree.feed(text)
    tree.close()
    assert tree.stack == [tree.root], "unclosed elements"
    return tree.root


def find(element, tag):
    found = [element] if element[0] == tag else []
    for child in element[3]:
        found += find(child, tag)
    return found


def text_of(element) -> str:
    return "".join(element[2])


def test_report_is_the_typed_register_report():
    k = shc.compile_file(SAMPLES / "prefix_sum.hlsl")
    report = k.report(llvm=False)
    assert isinstance(report, KernelReport) and sorted(report.waves) == [32, 64]
    assert report.to_dict() == report.as_dict() == json.loads(report.to_json())
    wave = report.waves[32]
    assert wave.to_dict()["vgprs"] == wave.listing.vgprs and wave.llvm is None
    assert report.to_dict()["numthreads"] == list(k.numthreads)


def test_live_registers_are_rows_of_the_listing():
    k = shc.compile_file(SAMPLES / "compaction.hlsl")
    rows = k.live_registers()
    lines = k.listing.splitlines()
    assert rows and all(isinstance(row, LiveRow) for row in rows)
    for row in rows:
        assert lines[row.line - 1].strip().startswith(row.text)
        assert row.live == len(row.registers) and list(row.registers) == sorted(row.registers)
    assert 0 < max(row.live for row in rows) <= 16
    wave64 = k.live_registers(wave_size=64)
    assert any("exec," in row.text for row in wave64) and not any("exec_lo" in row.text for row in wave64)


def test_kernel_html_has_the_register_table_and_the_listing_escaped():
    k = shc.compile_file(SAMPLES / "compaction.hlsl")
    report = k.report(llvm=False)
    tree = parse(k._repr_html_())
    (table,) = find(tree, "table")
    rows = find(table, "tr")
    assert [text_of(cell) for cell in find(rows[0], "th")][1:] == ["wave32", "wave64"]
    cells = {text_of(find(row, "th")[0]): [text_of(td) for td in find(row, "td")] for row in rows[1:]}
    assert cells["VGPRs used / allocated"] == [f"{w.listing.vgprs} / {w.listing.vgprs_allocated}"
                                               for w in (report.waves[32], report.waves[64])]
    assert cells["occupancy (waves per SIMD)"][0].startswith(str(report.waves[32].listing.occupancy))
    (details,) = find(tree, "details")
    assert text_of(find(details, "summary")[0]) == "RDNA2 listing (wave32)"
    listing = text_of(find(details, "pre")[0])
    assert listing == report.waves[32].listing.text
    assert "StructuredBuffer<float>" in listing  # '<' came through as text, not as a tag


def test_spd_result_html_shows_the_contact_sheet_and_the_mips():
    image = np.random.default_rng(3).random((40, 72, 4), dtype=np.float32)
    result = shc.spd.Downsampler().run(image)
    tree = parse(result._repr_html_())
    (img,) = find(tree, "img")
    prefix = "data:image/png;base64,"
    assert img[1]["src"].startswith(prefix)
    sheet = Image.open(io.BytesIO(base64.b64decode(img[1]["src"][len(prefix):])))
    widths = [72] + [mip.shape[1] for mip in result.mips]
    assert sheet.size == (sum(widths), 40)
    rows = find(find(tree, "table")[0], "tr")[1:]
    assert len(rows) == len(result.mips) == 6
    for number, (row, mip) in enumerate(zip(rows, result.mips), start=1):
        cells = [text_of(td) for td in find(row, "td")]
        assert cells[:3] == [str(number), " x ".join(map(str, mip.shape)), "float32"]
        assert abs(float(cells[3]) - float(mip.mean())) <= 1e-3 * max(1.0, abs(float(mip.mean())))
