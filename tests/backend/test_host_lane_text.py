"""Lane order and component order (``host/lane_text.py``): the shuffles that split a wave's
words (lane by lane, as memory holds them) into one vector per component and join them back,
run here on NumPy arrays (a ``shufflevector`` picks from ``a ++ b``)."""

from __future__ import annotations

import numpy as np
import pytest

from shc.compiler.backend.host.lane_text import TextShuffles, join_words, split_words


def numpy_shuffle(a: np.ndarray, b: np.ndarray | None, mask: list[int]) -> np.ndarray:
    return np.concatenate([a, a if b is None else b])[mask]


@pytest.mark.parametrize(("width", "count", "bits"), [(32, 4, 32), (64, 4, 32), (32, 3, 32), (32, 2, 64),
                                                      (32, 4, 16), (8, 4, 32)])
def test_split_and_join_are_the_transpose_and_its_inverse(width, count, bits):
    words = np.arange(width * count) * 10 + 7  # lane l's word k is at l * count + k
    parts = split_words(numpy_shuffle, words, width, count, bits)
    assert [part.tolist() for part in parts] == [words[k::count].tolist() for k in range(count)]
    assert join_words(numpy_shuffle, parts, width, bits).tolist() == words.tolist()


def test_four_words_a_lane_move_as_blocks_that_stay_inside_128_bit_halves():
    """Every shuffle of the 4 x 4 blocks (32-bit words) is an unpack within the 128-bit halves
    of two 8-word vectors or moves whole halves; the plain stride-4 pick is not emitted."""
    shuffles = TextShuffles("t", "float")
    split_words(shuffles, ("%all", 128), 32, 4, 32)
    within = {"0, 8, 1, 9, 4, 12, 5, 13", "2, 10, 3, 11, 6, 14, 7, 15", "0, 1, 8, 9, 4, 5, 12, 13",
              "2, 3, 10, 11, 6, 7, 14, 15"}
    unpacks = [line for line in shuffles.lines if "<8 x i32> <" in line and "<8 x float> %" in line]
    assert len(unpacks) == 4 * 8  # four blocks of eight lanes, eight unpacks each
    assert all(any(mask.replace(", ", ", i32 ") in line for mask in within) for line in unpacks)
    assert not any("i32 0, i32 4, i32 8, i32 12" in line for line in shuffles.lines)
