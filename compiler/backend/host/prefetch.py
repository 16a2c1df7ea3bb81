"""Software prefetching for tiled accesses: a stride predictor per access site.

The hardware prefetchers follow streams along rows; a group that tiles an image reads and
writes 2-D blocks, and a wave's lanes touch a few lines in each of several rows (SPD: 2x2
quads over 8 rows of a 64 x 64 tile). With a power-of-two row pitch the rows also fall in
a few cache sets, so lines fetched long before they are used are evicted first. What does
work is to fetch, while one wave runs, the lines the group's next wave will touch.

Waves of a group run one after another through the same code, each at a shifted place
(a group tiles an image, its waves tile the group's block), so where the next wave went
the last time, relative to where this wave went, predicts where it goes now. Each wave
keeps, per access site, a *history word* in ``ctx->history`` (``compiler/machine/abi.py``): the
offset of the first active lane the last time that wave ran the site. A helper that
prefetches gets two of them, ``history`` (this wave's) and ``following`` (the next
wave's in the group; the first wave's after the last; the same word in a one-wave
group), and:

* step = following - history, both read before this wave records its own offset: the
  distance from this wave to the next one in the previous group. For the last wave,
  ``following`` already holds wave 0's offset in this group, so the step goes to the
  next group's first wave. In a one-wave group the step is this wave's own, from its
  previous group to now.
* every active lane whose bytes, moved by the step, lie inside the memory and hold the
  start of a line (a 64-byte boundary from the memory's base) prefetches that line (for
  writing in a store): once per line for lanes that go along a row, whatever the
  memory's alignment. (Asking for each lane's own line instead, once per run of lanes
  in the same line, made SPD a third slower: a site that reads the texels beside
  another site's asks for the same lines again, and the requests queue for the line
  fill buffers.)

Limits, all harmless (a prefetch never faults, and a wrong one only costs a fill buffer):
the first group of a dispatch has no history (zeroed: step 0, nothing fetched); a site
run several times per wave (in a loop) predicts from its last run; a helper's fast path
(every lane on, the lanes' words back to back: the hardware streams those) neither
prefetches nor records; lanes strided wider than their access leave out the lines whose
start no lane holds. Passing ``null`` history words turns the prefetcher off for that
call.

Buffer accesses use the same words on their inline fast path (``prefetch_next_wave``), outside
loops and in groups of more than one wave: a tiled 2-D kernel's rows (transpose.hlsl) are back
to back within a wave but 8 KiB apart from one wave to the next. Buffer and texture sites share
the ``HISTORY_SITES`` words, first come first served in the kernel's order.
"""

from __future__ import annotations

LINE_BYTES = 64


def prefetch_lines(b, start, offsets, write: bool = False) -> None:
    """Prefetch the lines holding the bytes at ``offsets`` from the pointer ``start`` (builder
    code: the inline buffer paths' streams and next waves; the helpers write theirs as text)."""
    b.declarations.setdefault("llvm.prefetch.p0", "declare void @llvm.prefetch.p0(ptr, i32, i32, i32)")
    for offset in offsets:
        pointer = b.gep(start, b.const("i32", offset)) if offset else start
        b.raw(f"call void @llvm.prefetch.p0({pointer}, i32 {int(write)}, i32 3, i32 1)")


def prefetch_next_wave(b, base, first, size, history: tuple, nbytes: int, write: bool = False) -> None:
    """The same prediction for an inline back-to-back access (``contiguous.py``) outside loops,
    in a group of more than one wave (the caller passes no history words otherwise): record
    ``first`` (the wave's byte offset) in this wave's history word and prefetch the ``nbytes``
    the next wave will touch, ``first`` moved by the step from this wave's last offset to the
    next wave's, when they lie inside the ``size`` bytes. Not when the step is the access
    itself (the next wave carries on where this one ends: a stream, which the hardware
    prefetchers follow)."""
    mine, following = history
    then = b.load("i32", mine, align=4)
    after = b.load("i32", following, align=4)
    b.store(first, mine, align=4)
    step = b.binop("sub", after, then)
    at = b.binop("add", first, step)
    moved = b.binop("and", b.icmp("ne", step, b.zero("i32")), b.icmp("ne", step, b.const("i32", nbytes)))
    inside = b.binop("and", b.icmp("sge", at, b.zero("i32")),
                     b.icmp("sle", at, b.binop("sub", size, b.const("i32", nbytes))))
    ahead, done = b.label("ahead"), b.label("ahead.done")
    b.cbr(b.binop("and", moved, inside), ahead, done)
    b.start(ahead)
    # every line of the access, and the last byte's line for any alignment
    prefetch_lines(b, b.gep(base, at), [*range(0, nbytes, LINE_BYTES), nbytes - 1], write)
    b.br(done)
    b.start(done)


def prefetch_text(b, width: int, nbytes: int, write: bool, history: str, following: str, size: str) -> list[str]:
    """The IR text that opens a helper's slow (scattered) path: record this wave's offset
    in ``history``, prefetch for the next wave. ``%p0`` is the memory's base, ``%p1`` the
    lanes' byte offsets, ``%p2`` the active lanes; ``size`` the memory's bytes, ``nbytes``
    each lane's access."""
    offsets, mask, bits = f"<{width} x i32>", f"<{width} x i1>", f"i{width}"
    lines = [
        f"%h.bits = bitcast {mask} %p2 to {bits}", f"%h.some = icmp ne {bits} %h.bits, 0",
        f"%h.kept = icmp ne ptr {history}, null", "%h.go = and i1 %h.some, %h.kept",
        "br i1 %h.go, label %h.record, label %h.done",
        "h.record:",
        f"%h.lane = call {bits} @llvm.cttz.{bits}({bits} %h.bits, i1 true)",
        f"%h.now = extractelement {offsets} %p1, {bits} %h.lane",
        f"%h.then = load i32, ptr {history}, align 4",
        f"%h.next = load i32, ptr {following}, align 4",
        f"store i32 %h.now, ptr {history}, align 4",
        f"%h.alone = icmp eq ptr {history}, {following}",
        "%h.target = select i1 %h.alone, i32 %h.now, i32 %h.next",
        "%h.step = sub i32 %h.target, %h.then",
        "%h.moved = icmp ne i32 %h.step, 0",
        "br i1 %h.moved, label %h.ahead, label %h.done",
        "h.ahead:",
        f"%h.step1 = insertelement {offsets} poison, i32 %h.step, i64 0",
        f"%h.steps = shufflevector {offsets} %h.step1, {offsets} poison, {offsets} zeroinitializer",
        f"%h.at = add {offsets} %p1, %h.steps",
        f"%h.last = sub i32 {size}, {nbytes}",
        f"%h.last1 = insertelement {offsets} poison, i32 %h.last, i64 0",
        f"%h.lasts = shufflevector {offsets} %h.last1, {offsets} poison, {offsets} zeroinitializer",
        f"%h.low = icmp sge {offsets} %h.at, zeroinitializer",
        f"%h.high = icmp sle {offsets} %h.at, %h.lasts",
        f"%h.inside = and {mask} %h.low, %h.high",
        f"%h.wanted = and {mask} %h.inside, %p2",
        # a lane asks for a line when its bytes hold the line's start (64-byte boundaries
        # from the memory's base): once per line for lanes that go along a row
        f"%h.back = sub {offsets} zeroinitializer, %h.at",
        f"%h.into = and {offsets} %h.back, splat (i32 {LINE_BYTES - 1})",
        f"%h.starts = icmp ult {offsets} %h.into, splat (i32 {nbytes})",
        f"%h.line = add {offsets} %h.at, %h.into",
        f"%h.fetch = and {mask} %h.wanted, %h.starts",
        f"%h.fetchbits = bitcast {mask} %h.fetch to {bits}",
        f"%h.any = icmp ne {bits} %h.fetchbits, 0",
        "br i1 %h.any, label %h.lines, label %h.done",
        "h.lines:",
        f"%h.left = phi {bits} [ %h.fetchbits, %h.ahead ], [ %h.rest, %h.lines ]",
        f"%h.index = call {bits} @llvm.cttz.{bits}({bits} %h.left, i1 true)",
        f"%h.offset = extractelement {offsets} %h.line, {bits} %h.index",
        "%h.pointer = getelementptr i8, ptr %p0, i32 %h.offset",
        f"call void @llvm.prefetch.p0(ptr %h.pointer, i32 {int(write)}, i32 3, i32 1)",
        f"%h.less = sub {bits} %h.left, 1",
        f"%h.rest = and {bits} %h.left, %h.less",
        f"%h.more = icmp ne {bits} %h.rest, 0",
        "br i1 %h.more, label %h.lines, label %h.done",
        "h.done:",
    ]
    b.declarations.setdefault("llvm.prefetch.p0", "declare void @llvm.prefetch.p0(ptr, i32, i32, i32)")
    b.declarations.setdefault(f"llvm.cttz.{bits}", f"declare {bits} @llvm.cttz.{bits}({bits}, i1)")
    return lines
