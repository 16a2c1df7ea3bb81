"""Inline fast path of a lane-vector buffer access: the lanes' words back to back, in bounds.

Most accesses of a compute kernel are lane ``i`` reading or writing the ``i``-th element
after some first one (``buffer[id.x]``, a row of a tile). For those the caller tests, inline,

* the lanes' byte offsets are ``first + i * count * size`` (every lane, on or off), and
* so all of them are in bounds when the first and the last lane are (two scalar compares;
  the overflow guard and a resource array's valid lanes, when there are any, reduced once),

and then reads or writes the wave's words with one vector load or store at ``first``:
a plain one when every lane is on, else ``llvm.masked.load`` / ``llvm.masked.store``
with the exec mask, so inactive lanes never touch memory. Anything else (a lane out of
bounds, even an inactive one; scattered lanes; off lanes with 8- or 16-bit words, which
AVX2 cannot mask) calls the out-of-line helper (``memory._words_helper``: gathers, lane-ordered scatters,
the prefetcher), which keeps the D3D12 rules: out-of-bounds reads give 0, writes drop.
Back-to-back lanes never share bytes, so the lane order of a store does not matter here.

The test is a handful of vector instructions and one predictable branch; the call it
replaces spilled the lane registers around it. When the index is in lane order by
construction (``lane_order.py``: the lane index or ``SV_GroupIndex`` plus uniform values) the
first test is known to hold wherever the overflow guard does, so only the bounds and the guard
of the first and last lane are tested (``back_to_back``). It is not emitted for LDS or for a texture
site with a prefetcher (``memory.load_value``): those are scattered in practice, and the
test alone made SPD 2% more instructions.

A load or store inside a loop also prefetches along the wave's own stream (``stream``, a
stack word per site): the fast path keeps the first lane's offset, and the next time round
prefetches the lines of the access ``STREAM_STEPS`` of its steps further on (nothing the
first time or when the step is 0; for writing when it stores). A loop that walks a buffer
row by row (scan.hlsl's segments) otherwise waits for memory at every row: the few hundred
instructions a row costs leave the core's window too short to have more than one row's
lines in flight, and the hardware prefetchers did not make up for it (reduce_tiles over
16 MiB: 5.2 ms at best before, 2.1 ms after, one thread; numpy.sum 1.7-1.9 ms). A prefetch
never faults and a wrong one costs a fill buffer.

Outside loops, in a group of more than one wave, the fast path prefetches for the group's next
wave instead (``history``: the site's history words, ``prefetch.prefetch_next_wave``), as the
texture helpers do: a group that tiles a 2-D array reads a few lines from each of many rows,
which no hardware stream covers (transpose.hlsl: each wave reads four 128-byte pieces of rows
8 KiB apart and writes four more; 2048² on one thread, 29.4 -> 17.1 ms of CPU in rounds).
"""

from __future__ import annotations

from collections.abc import Callable

from .lane_text import join_words, split_words
from .llvm_text import V, bit_width, element
from .prefetch import LINE_BYTES, prefetch_lines, prefetch_next_wave

STREAM_STEPS = 4  # how many of its own steps ahead an access in a loop prefetches
KNOWN = 1 << 32  # a stream word holds KNOWN | the last offset once the site has run


def _quick(b, at: V, size: V, flags: list[V], exec_: V, step: int, maskable: bool,
           back_to_back: bool = False) -> tuple[V, V]:
    """``(take the fast path, the first lane's offset)``: the lanes ``step`` bytes apart
    from ``first``, and all of them (on or off) inside ``size`` bytes and ``flags``.
    ``back_to_back``: the lanes are ``step`` apart wherever the flags (the overflow guard)
    hold, so only the guard is tested, and of the first and last lane (``lane_order.py``)."""
    width = b.wave_size
    first = b.extract(at, 0)
    inside = b.binop("and", b.icmp("sge", first, b.zero("i32")),
                     b.icmp("sle", first, b.binop("sub", size, b.const("i32", width * step))))
    if back_to_back:
        quick = inside
    else:
        expect = b.binop("add", b.splat(first), b.const(at.ty, [lane * step for lane in range(width)]))
        quick = b.binop("and", _every(b, b.icmp("eq", at, expect)), inside)
    for flag in flags:
        if not flag.ty.startswith("<"):
            every = flag
        elif back_to_back:
            every = b.binop("and", b.extract(flag, 0), b.extract(flag, width - 1))
        else:
            every = _every(b, flag)
        quick = b.binop("and", quick, every)
    if not maskable and not _all_on(b, exec_):
        quick = b.binop("and", quick, _full(b, exec_))
    return quick, first


def _every(b, lanes: V) -> V:
    """Whether every lane of ``lanes`` is true (a reduction: cheaper than a mask's bits)."""
    return b.call("i1", "llvm.vector.reduce.and", [lanes], mangle_with=[lanes.ty])


def _all_on(b, exec_: V) -> bool:
    return exec_.ref == b.all_lanes().ref


def _full(b, exec_: V) -> V:
    return b.icmp("eq", b.mask_bits(exec_), b.const(b.bits_ty, -1))


def _word_mask(b, exec_: V, count: int) -> V:
    """The exec mask with each lane's bit repeated for its ``count`` words."""
    if count == 1:
        return exec_
    return b.shuffle(exec_, None, [lane for lane in range(b.wave_size) for _ in range(count)])


def _branches(b) -> tuple[str, str, str]:
    return b.label("wide"), b.label("scattered"), b.label("accessed")


def _prefetch_stream(b, base: V, first: V, stream: V, nbytes: int, write: bool = False) -> None:
    """Record ``first`` in the word ``stream`` and prefetch the ``nbytes`` at ``first`` plus
    ``STREAM_STEPS`` times the step from the offset recorded before (see the module's doc;
    ``write``: for writing)."""
    before = b.load("i64", stream, align=8)
    b.store(b.binop("or", b.cast("zext", first, "i64"), b.const("i64", KNOWN)), stream, align=8)
    step = b.binop("sub", first, b.cast("trunc", before, "i32"))
    moving = b.binop("and", b.icmp("uge", before, b.const("i64", KNOWN)), b.icmp("ne", step, b.zero("i32")))
    ahead, on = b.label("stream"), b.label("streamed")
    b.cbr(moving, ahead, on)
    b.start(ahead)
    start = b.gep(base, b.binop("add", first, b.binop("mul", step, b.const("i32", STREAM_STEPS))))
    prefetch_lines(b, start, [line * LINE_BYTES for line in range(max(nbytes // LINE_BYTES, 1))], write)
    b.br(on)
    b.start(on)


def _prefetch(b, base: V, first: V, size: V, stream: V | None,
              history: Callable[[], tuple[V, V] | None] | None, nbytes: int, write: bool = False) -> None:
    """The fast path's prefetch: along the wave's stream inside a loop, else for the next wave."""
    if stream is not None:
        _prefetch_stream(b, base, first, stream, nbytes, write)
        return
    words = history() if history is not None else None
    if words is not None:
        prefetch_next_wave(b, base, first, size, words, nbytes, write)


def load_words(b, base: V, at: V, size: V, flags: list[V], exec_: V, elem: str, count: int,
               slow: Callable[[], list[V]], stream: V | None = None, back_to_back: bool = False,
               history: Callable[[], tuple[V, V] | None] | None = None) -> list[V]:
    """``count`` lane vectors of ``elem`` at byte offsets ``at`` from ``base`` (lane ``i``'s
    ``k``-th word in vector ``k``); ``slow`` emits the helper call and returns the same.
    ``stream``: the site's stack word when it is inside a loop (prefetching, see above);
    ``back_to_back``: the offsets are known to be in lane order (``_quick``); ``history``: gives
    the site's history words outside loops, to prefetch for the group's next wave (see above)."""
    width, word = b.wave_size, max(bit_width(elem) // 8, 1)
    maskable = bit_width(elem) in (32, 64)
    quick, first = _quick(b, at, size, flags, exec_, count * word, maskable, back_to_back)
    fast, scattered, done = _branches(b)
    b.cbr(quick, fast, scattered)
    b.start(fast)
    words_ty = f"<{width * count} x {elem}>"
    _prefetch(b, base, first, size, stream, history, width * count * word)
    pointer = b.gep(base, first)
    arrivals = []  # (words, block) of each way to ``done``

    def split(words: V) -> None:
        parts = [words] if count == 1 else split_words(b.shuffle, words, width, count, bit_width(elem))
        arrivals.append((parts, b.current))
        b.br(done)
    if not (_all_on(b, exec_) or not maskable):  # a plain load when every lane is on
        plain, masked = b.label("whole"), b.label("masked")
        b.cbr(_full(b, exec_), plain, masked)
        b.start(masked)
        split(b.call(words_ty, "llvm.masked.load",
                     [pointer, V("i32", "1"), _word_mask(b, exec_, count), b.zero(words_ty)],
                     mangle_with=[words_ty, "p0"]))
        b.start(plain)
    split(b.load(words_ty, pointer, align=1))
    b.start(scattered)
    arrivals.append((slow(), b.current))
    b.br(done)
    b.start(done)
    return [b.inst(arrivals[0][0][k].ty, f"phi {arrivals[0][0][k].ty} "
                   + ", ".join(f"[ {words[k].ref}, %{block} ]" for words, block in arrivals))
            for k in range(count)]


def store_words(b, base: V, at: V, size: V, flags: list[V], exec_: V, words: list[V],
                slow: Callable[[], None], stream: V | None = None, back_to_back: bool = False,
                history: Callable[[], tuple[V, V] | None] | None = None) -> None:
    """Write the lane vectors ``words`` (lane ``i``'s ``k``-th word in ``words[k]``) at byte
    offsets ``at`` from ``base``; ``slow`` emits the helper call; ``stream``, ``back_to_back``
    and ``history`` as for loads."""
    count = len(words)
    elem = words[0].ty[words[0].ty.index("x") + 2:-1]
    word = max(bit_width(elem) // 8, 1)
    maskable = bit_width(elem) in (32, 64)
    quick, first = _quick(b, at, size, flags, exec_, count * word, maskable, back_to_back)
    fast, scattered, done = _branches(b)
    b.cbr(quick, fast, scattered)
    b.start(fast)
    _prefetch(b, base, first, size, stream, history, b.wave_size * count * word, write=True)
    joined = _interleave(b, words)
    pointer = b.gep(base, first)
    if _all_on(b, exec_) or not maskable:
        b.store(joined, pointer, align=1)
    else:  # a masked store is slow on some cores (AMD): a plain one when every lane is on
        plain, masked = b.label("whole"), b.label("masked")
        b.cbr(_full(b, exec_), plain, masked)
        b.start(plain)
        b.store(joined, pointer, align=1)
        b.br(done)
        b.start(masked)
        b.call("void", "llvm.masked.store", [joined, pointer, V("i32", "1"), _word_mask(b, exec_, count)],
               mangle_with=[joined.ty, "p0"])
    b.br(done)
    b.start(scattered)
    slow()
    b.br(done)
    b.start(done)


def _interleave(b, words: list[V]) -> V:
    """One ``<W * count>`` vector of ``words``, lane by lane."""
    return words[0] if len(words) == 1 else join_words(b.shuffle, words, b.wave_size, bit_width(element(words[0].ty)))
