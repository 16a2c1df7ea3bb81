"""Moving lane vectors between component order (one ``<W x T>`` per component, as the
kernel holds them) and lane order (each lane's words together, as memory holds them), for
the inline accesses (``contiguous.py``, through the builder) and the out-of-line memory
helpers (``memory._words_helper``, as IR text).

    parts = split_words(b.shuffle, words, 32, 4, 32)   # <128 x float> -> 4 x <32 x float>
    words = join_words(b.shuffle, parts, 32, 32)       # and back
    lines, names = split_text(32, 4, "float", 32, "%all", "f")               # the same as IR text
    lines, names = lane_loads_text(32, 4, "float", 32, "%p1", "%p2", "s")    # scattered lanes' loads
    lines = interleave_text(32, "float", 32, ["%p3", "%p4", "%p5", "%p6"], "w")   # %w, lane by lane
    lines = pack_text("{ <32 x float>, ... }", names)                        # return them as one struct

Four 32-bit words a lane (``float4``, ``uint4``: SPD's texels, the benchmark kernels'
``uint4``s) move as 4 x 4 blocks of eight lanes: lanes i and i + 4 of a block share a
256-bit register, two rounds of unpacks within its 128-bit halves sort the words by
component, and no shuffle crosses the halves but the first (loads) or the last (stores).
LLVM's own lowering of the same stride-4 ``shufflevector`` crossed them at every step
(``vpermd``, blends, spills); the blocks take 12 shuffles per eight lanes (the ``uint4``
load helper: 377 lines of assembly instead of 667). Other shapes keep the plain shuffles.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

Shuffle = Callable[[Any, Any, list[int]], Any]  # shufflevector of a ++ b (b None: a alone)

# within each 128-bit half of two 8-word vectors: unpack low and high 32-bit words, then
# low and high 64-bit pairs
UNPACK_LOW, UNPACK_HIGH = [0, 8, 1, 9, 4, 12, 5, 13], [2, 10, 3, 11, 6, 14, 7, 15]
PAIRS_LOW, PAIRS_HIGH = [0, 1, 8, 9, 4, 5, 12, 13], [2, 3, 10, 11, 6, 7, 14, 15]


def _blocks(width: int, count: int, bits: int) -> bool:
    """Whether 4 x 4 blocks apply: four 32-bit words a lane and whole blocks of eight lanes."""
    return count == 4 and bits == 32 and width % 8 == 0


def _concat(shuffle: Shuffle, parts: list, size: int) -> Any:
    """``parts`` (a power of two of ``size``-element vectors) end to end."""
    while len(parts) > 1:
        parts = [shuffle(parts[i], parts[i + 1], list(range(2 * size))) for i in range(0, len(parts), 2)]
        size *= 2
    return parts[0]


def split_words(shuffle: Shuffle, words: Any, width: int, count: int, bits: int) -> list:
    """The ``count`` component vectors of ``words`` (``width`` lanes' ``bits``-bit words, lane by lane)."""
    if not _blocks(width, count, bits):
        return [shuffle(words, None, [lane * count + k for lane in range(width)]) for k in range(count)]
    parts = [[], [], [], []]
    for first in range(0, width, 8):
        # pairs[j]: lane first + j's words, then lane first + j + 4's
        pairs = [shuffle(words, None, [4 * (first + lane) + k for lane in (j, j + 4) for k in range(4)])
                 for j in range(4)]
        xy01, zw01 = shuffle(pairs[0], pairs[1], UNPACK_LOW), shuffle(pairs[0], pairs[1], UNPACK_HIGH)
        xy23, zw23 = shuffle(pairs[2], pairs[3], UNPACK_LOW), shuffle(pairs[2], pairs[3], UNPACK_HIGH)
        for k, (low, high, picks) in enumerate(((xy01, xy23, PAIRS_LOW), (xy01, xy23, PAIRS_HIGH),
                                                (zw01, zw23, PAIRS_LOW), (zw01, zw23, PAIRS_HIGH))):
            parts[k].append(shuffle(low, high, picks))
    return [_concat(shuffle, part, 8) for part in parts]


def join_words(shuffle: Shuffle, parts: list, width: int, bits: int) -> Any:
    """``parts`` (one vector per component) as one vector, lane by lane: ``split_words`` undone."""
    count = len(parts)
    if not _blocks(width, count, bits):
        level = list(parts)
        while len(level) & (len(level) - 1):
            level.append(None)
        whole = _concat(shuffle, [part if part is not None else parts[0] for part in level], width)
        return shuffle(whole, None, [k * width + lane for lane in range(width) for k in range(count)])
    blocks = []
    for first in range(0, width, 8):
        x, y, z, w = (shuffle(part, None, list(range(first, first + 8))) for part in parts)
        xy01, xy23 = shuffle(x, y, UNPACK_LOW), shuffle(x, y, UNPACK_HIGH)
        zw01, zw23 = shuffle(z, w, UNPACK_LOW), shuffle(z, w, UNPACK_HIGH)
        # pair j: lane first + j's words in its low half, lane first + j + 4's in its high half
        pairs = [shuffle(xy01, zw01, PAIRS_LOW), shuffle(xy01, zw01, PAIRS_HIGH),
                 shuffle(xy23, zw23, PAIRS_LOW), shuffle(xy23, zw23, PAIRS_HIGH)]
        lows = [shuffle(pairs[j], pairs[j + 1], [0, 1, 2, 3, 8, 9, 10, 11]) for j in (0, 2)]
        highs = [shuffle(pairs[j], pairs[j + 1], [4, 5, 6, 7, 12, 13, 14, 15]) for j in (0, 2)]
        blocks.append(_concat(shuffle, lows + highs, 8))
    return _concat(shuffle, blocks, 32)


class TextShuffles:
    """``Shuffle`` over IR text: values are ``(name, element count)``; ``lines`` collects the
    ``shufflevector``s, named ``%{prefix}.N``."""

    def __init__(self, prefix: str, elem: str):
        self.prefix, self.elem, self.lines = prefix, elem, []

    def __call__(self, a: tuple[str, int], b: tuple[str, int] | None, mask: list[int]) -> tuple[str, int]:
        name = f"%{self.prefix}.{len(self.lines)}"
        ty = f"<{a[1]} x {self.elem}>"
        self.lines.append(f"{name} = shufflevector {ty} {a[0]}, {ty} {b[0] if b else 'poison'}, "
                          f"{_mask_text(tuple(mask))}")
        return name, len(mask)


@lru_cache(maxsize=512)
def _mask_text(mask: tuple[int, ...]) -> str:
    """A shuffle mask as an IR constant, written once per mask: the same few recur, and writing
    them each time was 18% of building SPD's host IR (cProfile)."""
    picks = ", ".join(f"i32 {m}" for m in mask)
    return f"<{len(mask)} x i32> <{picks}>"


def lane_loads_text(width: int, count: int, elem: str, bits: int, offsets: str, mask: str,
                    out: str) -> tuple[list[str], list[str]]:
    """Text that loads each lane's ``count`` words with one vector load (an inactive lane's
    from a zeroed stack slot), then splits them by component; returns the lines and the
    components' names (LLVM scalarises a masked gather on x86 without fast gathers into a
    branch and a load per word; this is a select and a load per lane, and a transpose)."""
    chunk = f"<{count} x {elem}>"
    lines = [f"%{out}.zero = alloca {chunk}, align 16", f"store {chunk} zeroinitializer, ptr %{out}.zero, align 16"]
    for lane in range(width):
        lines += [f"%{out}.at{lane} = extractelement <{width} x i32> {offsets}, i32 {lane}",
                  f"%{out}.on{lane} = extractelement <{width} x i1> {mask}, i32 {lane}",
                  f"%{out}.to{lane} = getelementptr i8, ptr %p0, i32 %{out}.at{lane}",
                  f"%{out}.from{lane} = select i1 %{out}.on{lane}, ptr %{out}.to{lane}, ptr %{out}.zero",
                  f"%{out}.lane{lane} = load {chunk}, ptr %{out}.from{lane}, align 1"]
    shuffles = TextShuffles(out, elem)
    words = _concat(shuffles, [(f"%{out}.lane{lane}", count) for lane in range(width)], count)
    names = [name for name, _ in split_words(shuffles, words, width, count, bits)]
    return lines + shuffles.lines, names


def split_text(width: int, count: int, elem: str, bits: int, words: str, out: str) -> tuple[list[str], list[str]]:
    """Text that splits ``words`` (``<width * count x elem>``, lane by lane) by component;
    returns the lines and the components' names."""
    shuffles = TextShuffles(out, elem)
    names = [name for name, _ in split_words(shuffles, (words, width * count), width, count, bits)]
    return shuffles.lines, names


def interleave_text(width: int, elem: str, bits: int, names: list[str], out: str) -> list[str]:
    """Text that joins the component vectors ``names`` into ``%out``, ordered lane by lane."""
    shuffles = TextShuffles(out, elem)
    joined, _ = join_words(shuffles, [(name, width) for name in names], width, bits)
    return shuffles.lines + [f"%{out} = bitcast <{width * len(names)} x {elem}> {joined} "
                             f"to <{width * len(names)} x {elem}>"]


def pack_text(result: str, names: list[str]) -> list[str]:
    """Text that returns the vectors ``names`` as the helper's ``result`` (a struct when there are several)."""
    if len(names) == 1:
        return [f"ret {result} {names[0]}"]
    lines, current = [], "poison"
    for k, name in enumerate(names):
        lines.append(f"{name}.r = insertvalue {result} {current}, {result.split(', ')[0].lstrip('{ ')} {name}, {k}")
        current = f"{name}.r"
    return lines + [f"ret {result} {current}"]
