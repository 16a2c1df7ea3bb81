"""The texture prefetcher's prediction (host/prefetch.py), run on its own.

A load helper with prefetching is compiled with ``llvm.prefetch`` replaced by a call that
records its address, and called through a small wrapper with chosen lane offsets, active
lanes and history words: the recorded addresses and the history word it leaves are the
prediction, which no kernel result can show (a prefetch changes no value).
"""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

from shc.compiler.backend.host.llvm_text import Builder
from shc.compiler.backend.host.jit import _llvm, target_machine
from shc.compiler.backend.host.memory import _words_helper

WIDTH = 32
RECORD = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32)


@pytest.fixture(scope="module")
def probe():
    """probe(base, offsets, active, history, following, size): runs the helper's slow path;
    returns (prefetched byte offsets from base, prefetches for writing?)."""
    b = Builder(WIDTH)
    name, result = _words_helper(b, "load", "float", 4, prefetch=True)
    lanes, mask = f"<{WIDTH} x i32>", f"<{WIDTH} x i8>"
    wrapper = [
        "define void @probe(ptr %base, ptr %offsets, ptr %active, ptr %history, ptr %following, i32 %size) {",
        f"  %o = load {lanes}, ptr %offsets, align 4",
        f"  %a = load {mask}, ptr %active, align 1",
        f"  %m = trunc {mask} %a to <{WIDTH} x i1>",
        f"  %r = call {result} @{name}(ptr %base, {lanes} %o, <{WIDTH} x i1> %m, ptr %history, ptr %following, "
        "i32 %size)",
        "  ret void", "}"]
    text = b.text(["declare void @shc.test.record(ptr, i32, i32, i32)"]) + "\n".join(wrapper) + "\n"
    text = text.replace("call void @llvm.prefetch.p0(", "call void @shc.test.record(")
    text = "\n".join(line for line in text.splitlines() if "declare void @llvm.prefetch" not in line)
    llvm = _llvm()
    seen: list[tuple[int, int]] = []
    callback = RECORD(lambda address, write, locality, cache: seen.append((address, write)))
    llvm.add_symbol("shc.test.record", ctypes.cast(callback, ctypes.c_void_p).value)
    module = llvm.parse_assembly(text)
    machine = target_machine()
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    function = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * 5, ctypes.c_int32)(engine.get_function_address("probe"))
    memory = np.zeros(1 << 16, np.uint8)

    def call(offsets, active, history, following, size=len(memory)):
        seen.clear()
        offsets = np.asarray(offsets, np.int32)
        active = np.asarray(active, np.uint8)
        pointers = [None if word is None else ctypes.addressof(word) for word in (history, following)]
        function(memory.ctypes.data, offsets.ctypes.data, active.ctypes.data, *pointers, size)
        return sorted(address - memory.ctypes.data for address, _ in seen), {write for _, write in seen}

    call.keep = (engine, callback, memory)  # alive as long as the fixture
    return call


def lines_started(offsets, active, nbytes=16):
    """The 64-byte boundaries that the active lanes' bytes hold."""
    return sorted({((at + 63) // 64) * 64 for at, on in zip(offsets, active)
                   if on and ((at + 63) // 64) * 64 < at + nbytes})


def scattered(step=32, first=256):
    return [first + lane * step for lane in range(WIDTH)]  # not back to back: the slow path


def test_the_next_wave_is_where_it_was_from_this_one(probe):
    offsets, active = scattered(), [1] * WIDTH
    this, following = ctypes.c_int32(1000), ctypes.c_int32(1000 + 4096)  # the next wave was 4096 on
    prefetched, writes = probe(offsets, active, this, following)
    assert prefetched == lines_started([at + 4096 for at in offsets], active)
    assert len(prefetched) == WIDTH // 2  # two lanes per line: one prefetch each
    assert writes == {0}  # a load prefetches for reading
    assert this.value == offsets[0] and following.value == 1000 + 4096  # records its own offset only


def test_the_first_active_lane_is_recorded_and_inactive_lanes_ask_nothing(probe):
    offsets, active = scattered(), [0, 0, 0] + [1] * 9 + [0] * (WIDTH - 12)
    this, following = ctypes.c_int32(0), ctypes.c_int32(640)
    prefetched, _ = probe(offsets, active, this, following)
    assert prefetched == lines_started([at + 640 for at in offsets], active)
    assert this.value == offsets[3]


def test_a_one_wave_group_steps_from_its_previous_group(probe):
    word = ctypes.c_int32(256 - 8192)  # the same word for this wave and the next
    prefetched, _ = probe(scattered(), [1] * WIDTH, word, word)
    assert prefetched == lines_started([at + 8192 for at in scattered()], [1] * WIDTH)
    assert word.value == 256


def test_no_step_no_history_or_outside_the_memory_fetches_nothing(probe):
    offsets = scattered()
    assert probe(offsets, [1] * WIDTH, ctypes.c_int32(5), ctypes.c_int32(5 + 0))[0] == []  # step 0
    assert probe(offsets, [1] * WIDTH, None, None)[0] == []  # null history: off
    this, following = ctypes.c_int32(0), ctypes.c_int32(-2048)
    assert probe(offsets, [1] * WIDTH, this, following)[0] == []  # every lane before the memory
    this, following = ctypes.c_int32(0), ctypes.c_int32(320)
    prefetched, _ = probe(offsets, [1] * WIDTH, this, following, size=1024)  # past the end: dropped
    assert prefetched == lines_started([at + 320 for at in offsets if at + 320 + 16 <= 1024], [1] * WIDTH)
    assert len(prefetched) == 7 and max(prefetched) < 1024


def test_lanes_that_hold_no_line_start_ask_nothing(probe):
    # 16 bytes every 32 from 16: each line is touched, no lane holds its start (in SPD, the
    # site that reads the texels beside these, from 0, asks for the lines)
    offsets = [16 + 32 * lane for lane in range(WIDTH)]
    assert lines_started(offsets, [1] * WIDTH) == []
    assert probe(offsets, [1] * WIDTH, ctypes.c_int32(0), ctypes.c_int32(4096))[0] == []
    beside = [32 * lane for lane in range(WIDTH)]
    assert probe(beside, [1] * WIDTH, ctypes.c_int32(0), ctypes.c_int32(4096))[0] == [4096 + 64 * k for k in range(16)]
