"""Shared by the test_host_*.py files: the host JIT (compiler/backend/host.py) against the IR
interpreter, wave32 and wave64.

A small local harness JITs a kernel (``host_jit.jit``: llvmlite's MCJIT, the new
pass manager at O2), binds NumPy arrays to its resource slots the way compiler/machine/abi.py describes,
and runs one group: every wave up to a barrier, then all of them past it, until
each is done. Expected results come from ``interpret.run_wave`` run wave after
wave on the same inputs (kernels whose waves do not talk to each other), or from
NumPy for what the interpreter does not model (groups synchronising through LDS,
SampleLevel).
"""

from __future__ import annotations

import ctypes
import dataclasses
import struct
from textwrap import dedent

import numpy as np
import pytest

pytest.importorskip("llvmlite.binding")

from shc.compiler.backend.host.module import META_ARRAY_COUNT, build_host_module  # noqa: E402
from shc.compiler.backend.host.jit import CompiledKernel, code_plan, jit  # noqa: E402
from shc.compiler.diagnostics import Diagnostics  # noqa: E402
from shc.compiler.ir.interpret.run import run_wave  # noqa: E402
from shc.compiler.pipeline import Options, compile_source  # noqa: E402
from shc.compiler.machine.abi import HISTORY_SITES, META_INTS, STAT_COUNTERS, STAT_NAMES, ResourceKind, Status  # noqa: E402

WAVE_SIZES = (32, 64)


class Context(ctypes.Structure):
    _fields_ = [("resources", ctypes.c_void_p), ("sizes", ctypes.c_void_p), ("meta", ctypes.c_void_p),
                ("lds", ctypes.c_void_p), ("scratch", ctypes.c_void_p), ("stop", ctypes.c_void_p),
                ("counters", ctypes.c_void_p), ("wave_size", ctypes.c_int32), ("numthreads", ctypes.c_int32 * 3),
                ("group_count", ctypes.c_int32 * 3), ("history", ctypes.c_void_p)]


def staged_texture(mips: list[np.ndarray], is_array: bool):
    """4-channel texels (missing channels 0, alpha 1), every mip back to back; and the meta sizes."""
    levels, offsets, total = [], [], 0
    for level in mips:
        level = np.asarray(level)
        if level.ndim == (3 if is_array else 2):
            level = level[..., None]
        dtype = np.float32 if level.dtype.kind == "f" else (np.int32 if level.dtype.kind == "i" else np.uint32)
        staged = np.zeros(level.shape[:-1] + (4,), dtype)
        staged[..., 3] = 1
        staged[..., :level.shape[-1]] = level
        offsets.append(total)
        total += staged.size // 4
        levels.append(staged)
    spatial = levels[0].shape[:-1]
    depth = spatial[0] if is_array else (spatial[0] if len(spatial) == 3 else 1)
    if is_array:
        spatial = spatial[1:]
    width, height = spatial[-1], spatial[-2] if len(spatial) > 1 else 1
    return np.concatenate([level.reshape(-1) for level in levels]), levels, offsets, (width, height, depth)


# Many tests run one kernel on several inputs: LLVM compiles each distinct kernel once per test
# process. The machine code depends only on the kernel's LLVM IR, its entry and jit.code_plan
# (SHC_OPT), and holds no writable globals (a Group binds its own memory), so it is shared.
_COMPILED: dict[tuple, CompiledKernel] = {}


def compiled_once(kernel) -> CompiledKernel:
    """``jit(kernel)``, or the code this process already compiled from the same IR and plan."""
    key = (kernel.llvm_ir, kernel.entry, code_plan(kernel))
    if key not in _COMPILED:
        _COMPILED[key] = jit(kernel)
    return _COMPILED[key]


class Group:
    """One group of a kernel run by the JIT, waves region by region."""

    def __init__(self, kernel, compiled: Group | None = None):
        self.kernel = kernel
        self.compiled = compiled.compiled if compiled else compiled_once(kernel)
        self.function = self.compiled.function

    def bind(self, resources: dict):
        kernel = self.kernel
        slots = []
        for info in kernel.slots:  # the unbounded array (last) gets a slot per element given
            if info.count is None:
                elements = max(len(resources.get(info.name, [])), 1)
                slots += [dataclasses.replace(info, slot=info.slot + k, array_index=k) for k in range(elements)]
            else:
                slots.append(info)
        count = max(len(slots), 1)
        self.pointers = np.zeros(count, np.uint64)
        self.sizes = np.zeros(count, np.int64)
        self.meta = np.zeros(count * META_INTS + 64, np.int32)
        self.keep, self.textures = [], []
        extra = count * META_INTS
        for info in slots:
            if info.count is None and info.array_index == 0:
                self.meta[info.slot * META_INTS + META_ARRAY_COUNT] = len(resources.get(info.name, []))
            item = resources.get(info.name)
            if isinstance(item, list) and (info.count != 1 or info.kind is not ResourceKind.TEXTURE):
                item = item[info.array_index] if info.array_index < len(item) else None
            meta = self.meta[info.slot * META_INTS:(info.slot + 1) * META_INTS]
            meta[0], meta[1] = int(info.kind), info.stride
            if item is None:
                continue
            if info.kind is ResourceKind.SAMPLER:  # (filter, address[, border color])
                meta[7], meta[8] = item[:2]
                if len(item) < 3:
                    continue
                item = np.array(item[2], np.float32)
            if info.kind is ResourceKind.TEXTURE:
                mips = item if isinstance(item, list) else [item]
                data, levels, offsets, (width, height, depth) = staged_texture(mips, info.hlsl_kind.endswith("Array"))
                meta[2:7] = width, height, depth, len(mips), extra
                self.meta[extra:extra + len(offsets)] = offsets
                extra += len(offsets)
                self.textures.append((data, levels, mips))
                item = data
            array = item if isinstance(item, np.ndarray) else np.frombuffer(bytes(item), np.uint8).copy()
            assert array.flags.c_contiguous
            self.keep.append(array)
            self.pointers[info.slot] = array.ctypes.data
            self.sizes[info.slot] = array.nbytes
            if info.kind is not ResourceKind.TEXTURE:
                meta[2] = array.nbytes // max(info.stride, 1)

    def run(self, resources: dict, group_id=(0, 0, 0), stop: bool = False) -> Status:
        """Run the group; buffers are written in place (textures: their mip arrays)."""
        kernel = self.kernel
        self.bind(resources)
        self.lds = np.zeros(max(kernel.lds_bytes, 1), np.uint8)
        lds_pointers = np.array([self.lds.ctypes.data], np.uint64)
        scratch = np.zeros(max(kernel.scratch_bytes_per_wave * kernel.waves_per_group, 1), np.uint8)
        self.stop = np.array([int(stop)], np.int32)
        self.counters = np.zeros(STAT_COUNTERS, np.int64)
        self.history = np.zeros(kernel.waves_per_group * HISTORY_SITES, np.int32)
        context = Context(self.pointers.ctypes.data, self.sizes.ctypes.data, self.meta.ctypes.data,
                          lds_pointers.ctypes.data, scratch.ctypes.data, self.stop.ctypes.data,
                          self.counters.ctypes.data, kernel.wave_size, (ctypes.c_int32 * 3)(*kernel.numthreads),
                          (ctypes.c_int32 * 3)(1, 1, 1), self.history.ctypes.data)
        frames = []
        for wave in range(kernel.waves_per_group):
            frame = np.zeros(kernel.frame_bytes, np.uint8)
            header = frame[:32].view(np.int32)
            header[1], header[2:5] = wave, group_id
            frames.append(frame)
        status = [None] * len(frames)
        self.rounds = 0
        while any(s != Status.DONE for s in status):
            self.rounds += 1
            for wave, frame in enumerate(frames):
                if status[wave] != Status.DONE:
                    status[wave] = Status(self.function(ctypes.addressof(context), frame.ctypes.data))
                    if status[wave] in (Status.STOPPED, Status.DIVERGENT_BARRIER):
                        return status[wave]
            stopped_at = {int(frame[20:24].view(np.int32)[0]) for frame, s in zip(frames, status)
                          if s == Status.BARRIER}
            assert len(stopped_at) <= 1, f"waves stopped at different barriers {stopped_at}"
        for data, levels, mips in self.textures:
            position = 0
            for level, original in zip(levels, mips):
                level.reshape(-1)[:] = data[position:position + level.size]
                position += level.size
                if isinstance(original, np.ndarray) and original.flags.writeable:
                    original[...] = level[..., :original.shape[-1]].reshape(original.shape)
        return Status.DONE

    @property
    def stats(self) -> dict:
        return dict(zip(STAT_NAMES, self.counters.tolist()))


def compile_hlsl(source: str, wave_size: int):
    return compile_source(dedent(source), "test.hlsl", Options(wave_size=wave_size, verify=True), Diagnostics())


def interpret_group(module, buffers: dict, cbuffers: dict | None = None, group_id=(0, 0, 0)):
    """The interpreter, wave after wave of one group (for kernels whose waves do not interact)."""
    wave_size = module.function.wave_size
    threads = int(np.prod(module.function.numthreads))
    buffers = {name: (list(value) if isinstance(value, list) else value) for name, value in buffers.items()}
    states = []
    for wave in range(-(-threads // wave_size)):
        index = wave * wave_size + np.arange(wave_size)
        state = run_wave(module, wave_size, exec_mask=index < threads,
                         lane_inputs={"group_index": index, "group_id": group_id},
                         buffers=buffers, cbuffers=cbuffers)
        buffers = state.buffers
        states.append(state)
    return buffers, states


def run_both(source: str, wave_size: int, buffers: dict, cbuffers: dict | None = None, group_id=(0, 0, 0),
             module=None):
    """Run ``source`` on the JIT and on the interpreter; returns (jit buffers, interpreter buffers, group)."""
    module = module or compile_hlsl(source, wave_size)
    expected, states = interpret_group(module, {k: _copy(v) for k, v in buffers.items()}, cbuffers, group_id)
    actual = {k: _copy(v) for k, v in buffers.items()}
    group = Group(build_host_module(module))
    resources = dict(actual)
    for name, contents in (cbuffers or {}).items():
        resources[name] = contents
    assert group.run(resources, group_id) == Status.DONE
    group.interpreter_states = states
    return actual, expected, group


def _copy(value):
    return [np.array(v) for v in value] if isinstance(value, list) else np.array(value)


def assert_same(actual: dict, expected: dict, **tolerance):
    for name in expected:
        got, want = actual[name], expected[name]
        if isinstance(want, list):
            for g, w in zip(got, want):
                _assert_array(g, w, name, tolerance)
        else:
            _assert_array(got, want, name, tolerance)


def _assert_array(got, want, name, tolerance):
    if tolerance and np.asarray(want).dtype.kind == "f":
        np.testing.assert_allclose(got, want, err_msg=name, **tolerance)
    else:
        np.testing.assert_array_equal(np.asarray(got).view(np.uint8), np.asarray(want).view(np.uint8),
                                      err_msg=f"{name}: {got} != {want}")


def cbuffer_bytes(*values) -> bytes:
    data = b""
    for value in values:
        data += struct.pack("<f" if isinstance(value, float) else "<I", value)
    return data


# SampleLevel and SampleCmpLevelZero of 1-D, 2-D, 2-D array and 3-D textures, six results a lane
# (WAVE: the wave size): the sampling kernel the executors are compared on
# (test_simulate_images.py, test_executors_agree_textures.py)
SAMPLE_LEVEL_KERNEL = """
Texture2D<float4> t2 : register(t0);
Texture2DArray<float4> ta : register(t1);
Texture1D<float2> t1 : register(t2);
Texture3D<float4> t3 : register(t3);
SamplerState s : register(s0);
SamplerComparisonState c : register(s1);
StructuredBuffer<float4> coords : register(t4);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(WAVE, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float4 k = coords[i];
    o[i * 6 + 0] = t2.SampleLevel(s, k.xy, k.w);
    o[i * 6 + 1] = t2.SampleLevel(s, k.xy, 0, int2(1, -2));
    o[i * 6 + 2] = ta.SampleLevel(s, k.xyz, k.w);
    o[i * 6 + 3] = float4(t1.SampleLevel(s, k.x, k.w), 0, 0);
    o[i * 6 + 4] = t3.SampleLevel(s, k.xyz, k.w);
    o[i * 6 + 5] = ta.SampleCmpLevelZero(c, k.xyz, k.y).xxxx;
}
"""
