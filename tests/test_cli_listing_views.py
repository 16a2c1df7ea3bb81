"""`shc compile --livereg / --cfg / --stats / --compare-llvm` as a user types them."""

import os
import re
import sys
from pathlib import Path

from shc.compiler.machine.isa_classes import CLASSES, count_mnemonics, isa_class, isa_mnemonics

sys.path.insert(0, os.path.dirname(__file__))
import cli_runner  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def shc(*args):
    return cli_runner.shc(*args, cwd=ROOT)


def table(text: str) -> dict[str, list[int]]:
    """The rows of a --stats / --compare-llvm table: name -> numbers."""
    rows = {}
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] in (*CLASSES, "total", "s_waitcnt") and all(p.isdigit() for p in parts[1:]):
            rows[parts[0]] = [int(p) for p in parts[1:]]
    return rows


def test_livereg_annotates_every_listing_line_and_names_the_peak():
    plain = shc("compile", "samples/compaction.hlsl", "--target", "rdna2")
    view = shc("compile", "samples/compaction.hlsl", "--target", "rdna2", "--livereg")
    assert view.returncode == 0, view.stderr
    listing = plain.stdout.splitlines()
    rows = [line for line in view.stdout.splitlines() if re.match(r"^ *\d+ +(\d+)? *\|", line)]
    assert len(rows) == len(listing)
    counts = {}
    for number, (row, original) in enumerate(zip(rows, listing), start=1):
        gutter, bar, text = row.split("|", 2)
        assert int(gutter.split()[0]) == number and text.strip() == original.strip()
        if len(gutter.split()) == 2:  # an instruction: its count is the marks in its bar
            counts[number] = int(gutter.split()[1])
            assert counts[number] == sum(mark != " " for mark in bar)
    assert len(bar) == 16  # one column per allocated VGPR (compaction allocates 16)
    peak = max(counts.values())
    assert f"peak {peak} live VGPRs" in view.stdout and "16 allocated" in view.stdout
    for match in re.finditer(r"at line (\d+): (.*)", view.stdout):
        assert counts[int(match.group(1))] == peak
        assert listing[int(match.group(1)) - 1].strip().startswith(match.group(2))


DOT_NODE = re.compile(r'^  (bb\d+) \[label="((?:[^"\\]|\\.)*)"\];$')
DOT_EDGE = re.compile(r'^  (bb\d+) -> (bb\d+) \[label="([^"]*)"(, style=dashed)?\];$')


def parse_dot(text: str):
    lines = text.splitlines()
    assert lines[0].startswith("digraph ") and lines[0].endswith("{") and lines[-1] == "}"
    nodes, edges = {}, []
    for line in lines[1:-1]:
        if line.startswith(("  node [", "  edge [")):
            continue
        node, edge = DOT_NODE.match(line), DOT_EDGE.match(line)
        assert node or edge, line
        if node:
            nodes[node.group(1)] = node.group(2).replace('\\"', '"').split("\\l")[:-1]
        else:
            edges.append((edge.group(1), edge.group(2), edge.group(3), bool(edge.group(4))))
    return nodes, edges


def test_cfg_writes_the_blocks_and_every_branch_and_fall_through(tmp_path):
    dot = tmp_path / "cfg.dot"
    done = shc("compile", "samples/compaction.hlsl", "--target", "rdna2", "--cfg", str(dot))
    assert done.returncode == 0, done.stderr
    nodes, edges = parse_dot(dot.read_text())
    listing = done.stdout.split("\nmain:\n", 1)[1].splitlines()
    titles = [line.removeprefix("; ").split(":")[0] for line in listing if line.startswith((".LBB", "; %bb."))]
    assert len(nodes) == len(titles)  # every block is printed (the entry with its IR name)
    assert all(name in nodes for name in (f"bb{n}" for n in range(len(nodes))))
    by_label = {body[0].split(":")[0]: name for name, body in nodes.items()}
    assert list(by_label) == titles
    instructions = [line.strip() for body in nodes.values() for line in body[1:]]
    assert instructions == [line.split(";")[0].strip() for line in listing if line.startswith("  ")]
    for name, body in nodes.items():  # each branch is an edge to its label, named by its condition
        for inst in body[1:]:
            words = inst.split()
            if words[0].startswith(("s_branch", "s_cbranch_")):
                condition = "branch" if words[0] == "s_branch" else words[0][len("s_cbranch_"):]
                assert (name, by_label[words[1]], condition, False) in edges
        last = body[-1].split()[0] if len(body) > 1 else ""
        number = int(name[2:])
        falls = last not in ("s_branch", "s_endpgm") and f"bb{number + 1}" in nodes
        assert ((name, f"bb{number + 1}", "fall-through", True) in edges) == falls
    assert len(edges) == len(set(edges))


def test_stats_counts_the_listing_by_class_alone_or_after_it():
    alone = shc("compile", "samples/prefix_sum.hlsl", "--stats")
    after = shc("compile", "samples/prefix_sum.hlsl", "--target", "rdna2", "--stats")
    assert alone.returncode == 0 and after.returncode == 0, alone.stderr + after.stderr
    assert "; shc RDNA2 listing" not in alone.stdout and after.stdout.startswith("; shc RDNA2 listing")
    listing = after.stdout.split("; instructions by class")[0]
    mnemonics = [line.split()[0] for line in listing.split("\nmain:\n", 1)[1].splitlines()
                 if line.startswith("  ")]
    rows = table(alone.stdout)
    assert {name: rows[name][0] for name in CLASSES} == count_mnemonics(mnemonics)
    assert rows["total"] == [len(mnemonics)] and rows["s_waitcnt"] == [mnemonics.count("s_waitcnt")]
    header = next(line for line in listing.splitlines() if line.startswith("; instructions  "))
    assert header.split("s_waitcnt ")[1] == f"{mnemonics.count('s_waitcnt')})"
    for name in CLASSES:
        assert f"{name} {rows[name][0]}" in header


def test_compare_llvm_counts_both_listings_by_one_rule():
    compare = shc("compile", "samples/compaction.hlsl", "--compare-llvm")
    assert compare.returncode == 0, compare.stderr
    assert "shc wave32" in compare.stdout and "LLVM wave32" in compare.stdout
    rows = table(compare.stdout)
    ours = table(shc("compile", "samples/compaction.hlsl", "--stats").stdout)
    assert all(rows[name][0] == ours[name][0] for name in ours)
    llvm = isa_mnemonics(shc("compile", "samples/compaction.hlsl", "--emit", "amdgcn").stdout)
    assert {name: rows[name][1] for name in CLASSES} == count_mnemonics(llvm)
    assert rows["total"][1] == len(llvm) > 20 and rows["VALU"][1] > 0 and rows["branch"][1] > 0


def test_the_views_refuse_other_stages():
    done = shc("compile", "samples/compaction.hlsl", "--emit", "amdgcn", "--livereg")
    assert done.returncode == 1 and "--livereg" in done.stderr


def test_one_classifier_for_both_spellings():
    assert [isa_class(name) for name in ("s_add_u32", "v_fma_f32", "v_add_f32_dpp", "v_cmpx_gt_u32_e64",
                                         "buffer_load_dword", "image_sample_lz", "global_load_dword",
                                         "s_load_dwordx4", "s_buffer_load_dword", "ds_bpermute_b32",
                                         "s_cbranch_execz", "s_branch", "s_waitcnt", "s_waitcnt_vscnt",
                                         "s_endpgm", "s_barrier", "s_clause", "buffer_gl0_inv", "exp")] == [
        "SALU", "VALU", "VALU", "VALU", "VMEM", "VMEM", "VMEM", "SMEM", "SMEM", "LDS", "branch", "branch",
        "waitcnt", "waitcnt", "other", "other", "other", "other", "other"]
    text = "\t.text\nmain:   ; @main\n; %bb.0:\n\ts_load_dword s0, s[4:5], 0x0 ; note\n\tv_mov_b32_e32 v1, 0\n" \
           ".LBB0_1:\n\ts_endpgm\n.Lfunc_end0:\n\t.size main, .Lfunc_end0-main\n  - .args: x\n"
    assert isa_mnemonics(text) == ["s_load_dword", "v_mov_b32_e32", "s_endpgm"]
