"""The host JIT (compiler/backend/host.py) against the IR interpreter, wave32 and wave64.

A small local harness JITs a kernel (``host_jit.jit``: llvmlite's MCJIT, the new
pass manager at O2), binds NumPy arrays to its resource slots the way runtime/abi.py describes,
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

from shc.compiler.backend.host import META_ARRAY_COUNT, build_host_module  # noqa: E402
from shc.compiler.backend.host_jit import jit  # noqa: E402
from shc.compiler.diagnostics import Diagnostics  # noqa: E402
from shc.compiler.ir.interpret import run_wave  # noqa: E402
from shc.compiler.ir.reader import read_module  # noqa: E402
from shc.compiler.pipeline import Options, compile_source  # noqa: E402
from shc.runtime.abi import HISTORY_SITES, META_INTS, STAT_COUNTERS, STAT_NAMES, ResourceKind, Status  # noqa: E402

WAVE_SIZES = (32, 64)

# ---------------------------------------------------------------------------------------
# the harness
# ---------------------------------------------------------------------------------------



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


class Group:
    """One group of a kernel run by the JIT, waves region by region."""

    def __init__(self, kernel, compiled: Group | None = None):
        self.kernel = kernel
        self.compiled = compiled.compiled if compiled else jit(kernel)
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


# ---------------------------------------------------------------------------------------
# arithmetic, conversions, 16-bit and 64-bit types
# ---------------------------------------------------------------------------------------

ARITHMETIC = """
cbuffer Params : register(b0) { float scale; uint shift; };
RWStructuredBuffer<uint4> ints : register(u0);
RWStructuredBuffer<float4> floats : register(u1);
RWStructuredBuffer<uint4> smalls : register(u2);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    int s = (int)i - 20;
    uint u = i * 2654435761u;
    ints[i] = uint4(u / (i % 7), u % (i % 5 + 1), (uint)(s / 3), (uint)(s % -4));
    ints[i + NT] = uint4(u >> shift, (uint)(s >> 3), countbits(u), firstbithigh(u) + firstbitlow(s) * 64);
    ints[i + 2 * NT] = uint4(reversebits(u), (uint)min(s, -3), max(u, 77u), (uint)abs(s));
    float f = (float)s * scale;
    floats[i] = float4(f / 3.0, fmod(f, 1.5), floor(f) + frac(f), sqrt(abs(f)));
    floats[i + NT] = float4((float)(uint)(f * 1e8), (float)(int)f, min(f, 0.5), max(-f, 2.0));
    floats[i + 2 * NT] = float4(saturate(f), round(f), asfloat(asuint(f) ^ 0x80000000), f16tof32(f32tof16(f)));
    half h = (half)f;
    half h2 = h * (half)1.5 + (half)0.25;
    int16_t small = (int16_t)s * (int16_t)300;
    uint64_t big = (uint64_t)u * 3000000000ull;
    smalls[i] = uint4((uint)(int)(h2 * (half)64), (uint)(int)small, (uint)(big >> 32), (uint)big);
    floats[i + 3 * NT] = float4(dot(float3(f, 1, 2), float3(3, f, 4)), lerp(f, 2.0, 0.25), (float)h2,
                                isnan(f / 0.0) ? 1.0 : 0.0);
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("threads", [64, 40])
def test_arithmetic_matches_interpreter(wave_size, threads):
    source = ARITHMETIC.replace("NT", str(threads))
    buffers = {"ints": np.zeros((3 * threads, 4), np.uint32), "floats": np.zeros((4 * threads, 4), np.float32),
               "smalls": np.zeros((threads, 4), np.uint32)}
    actual, expected, _ = run_both(source, wave_size, buffers, {"Params": cbuffer_bytes(0.37, 3)})
    assert_same(actual, expected)


# ---------------------------------------------------------------------------------------
# divergent control flow
# ---------------------------------------------------------------------------------------

CONTROL_FLOW = """
StructuredBuffer<uint> data : register(t0);
RWStructuredBuffer<uint4> result : register(u0);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint n = data[i];
    uint acc = 0;
    uint last = 0;
    for (uint k = 0; k < n; ++k) {          // divergent trip count
        if ((k ^ i) % 3 == 0) continue;
        acc += k * i;
        last = k;
        if (acc > 200) break;
    }
    uint kind = 0;
    switch (i % 5) {
        case 0: kind = 10;
        case 1: kind += 1; break;           // falls through from case 0
        case 3: kind = 30; break;
        default: kind = 99;
    }
    uint j = 0;
    while (true) {                          // divergent exit from an endless loop
        j += 1;
        if (j * j > i) break;
    }
    if (i % 7 == 3) {
        result[i] = uint4(1, 2, 3, 4);
        return;                             // early return of some lanes
    }
    if (n > 4) {
        if (i & 1) acc = acc * 2; else acc = acc + 1000;
    } else {
        acc = acc ^ 0x55;
    }
    result[i] = uint4(acc, last, kind, j);
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("threads", [64, 40])
def test_divergent_control_flow_matches_interpreter(wave_size, threads):
    source = CONTROL_FLOW.replace("NT", str(threads))
    data = (np.arange(threads, dtype=np.uint32) * 7) % 11
    buffers = {"data": data, "result": np.zeros((threads, 4), np.uint32)}
    actual, expected, group = run_both(source, wave_size, buffers)
    assert_same(actual, expected)
    interpreted = sum(state.stats.counts.get("valu", 0) for state in group.interpreter_states)
    assert group.stats["valu"] == interpreted


# ---------------------------------------------------------------------------------------
# lane-exchange primitives (IR text), under full, partial and random exec masks
# ---------------------------------------------------------------------------------------


def primitive_kernel(wave_size: int, body: str) -> str:
    """In a selection on ``mask[i] != 0``: %1 = inp[i] (int), %2 = aux[i] (uint), %5 = -1; the
    body defines %9 (int), stored for every lane (wwm) so the whole register is compared."""
    return dedent(f"""
        resource @inp RWStructuredBuffer<int> u0 space0
        resource @aux RWStructuredBuffer<uint> u1 space0
        resource @mask RWStructuredBuffer<uint> u2 space0
        resource @result RWStructuredBuffer<int> u3 space0
        func @main numthreads({wave_size}, 1, 1) wave{wave_size} {{
        ^entry:
          %0 = thread_input uint {{which="group_index"}}
          %1 = buffer_load int %0 {{resource="inp"}}
          %2 = buffer_load uint %0 {{resource="aux"}}
          %3 = buffer_load uint %0 {{resource="mask"}}
          %4 = const uint {{value=0}}
          %5 = const int {{value=-1}}
          %6 = ne bool %3, %4
          selection ^end
          cond_br %6, ^body, ^end
        ^body:
        """) + "".join(f"  {line}\n" for line in body.strip().splitlines()) + dedent("""
          buffer_store %0, %9 {resource="result", wwm=true}
          br ^end
        ^end:
          ret
        }
        """)


def _dpp(ctrl, bound=False, row=15, bank=15, fi=False):
    return (f'%9 = dpp16 int %1, %5 {{bank_mask={bank}, bound_ctrl={str(bound).lower()}, ctrl="{ctrl}", '
            f'row_mask={row}, fetch_inactive={str(fi).lower()}}}')


PRIMITIVES = {
    "quad_perm": _dpp("quad_perm:[1,0,3,2]"),
    "quad_perm bound_ctrl": _dpp("quad_perm:[3,3,3,3]", bound=True),
    "row_shl": _dpp("row_shl:1"),
    "row_shr bank_mask": _dpp("row_shr:3", bank=14),
    "row_ror row_mask": _dpp("row_ror:5", row=5),
    "row_mirror fetch_inactive": _dpp("row_mirror", fi=True),
    "row_half_mirror": _dpp("row_half_mirror", bound=True),
    "row_share": _dpp("row_share:3"),
    "row_xmask": _dpp("row_xmask:5", bound=True),
    "dpp8": "%9 = dpp8 int %1, %5 {selects=[7, 6, 5, 4, 3, 2, 1, 0]}",
    "dpp8 fetch_inactive": "%9 = dpp8 int %1, %5 {selects=[1, 1, 0, 3, 2, 7, 6, 5], fetch_inactive=true}",
    "permlanex16": "%9 = permlanex16 int %1, %5 {selects=[15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]}",
    "permlanex16 fi bound_ctrl": "%9 = permlanex16 int %1, %5 {selects=[3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, "
                                 "9, 7, 9, 3], fetch_inactive=true, bound_ctrl=true}",
    "ds_swizzle quad": "%9 = ds_swizzle int %1, %5 {offset=32795}",  # swizzle(QUAD_PERM, 3, 2, 1, 0)
    "ds_swizzle bitmask": "%9 = ds_swizzle int %1, %5 {offset=1055}",  # and 0x1f, xor 1
    "ds_bpermute": "%7 = const uint {value=2}\n%8 = shl uint %2, %7\n%9 = ds_bpermute int %1, %5, %8",
    "ds_bpermute offset": "%7 = const uint {value=2}\n%8 = shl uint %2, %7\n"
                          "%9 = ds_bpermute int %1, %5, %8 {offset=12}",
    "lds_exchange": "%9 = lds_exchange int %1, %5, %2",
    "readlane": "%7 = const uint {value=5}\n%9 = readlane int %1, %7",
    "readlane divergent lane": "%9 = readlane int %1, %2",
    "readfirstlane": "%9 = readfirstlane int %1",
    "writelane": "%7 = const uint {value=9}\n%8 = const int {value=77}\n%9 = writelane int %1, %8, %7",
    "set_inactive": "%8 = set_inactive int %1, %5\n%9 = add int %8, %8 {wwm=true}",
    "ballot_mask": "%7 = gt bool %1, %5\n%8 = ballot_mask MASK %7\n%10 = const MASK {value=2863311530}\n"
                   "%11 = xor MASK %8, %10\n%12 = convert uint %11\n%9 = bitcast int %12",
    "mbcnt": "%7 = const MASK {value=3735928559}\n%8 = mbcnt uint %7, %2\n%9 = bitcast int %8",
    "mbcnt exec": "%7 = const bool {value=true}\n%10 = ballot_mask MASK %7\n%8 = mbcnt uint %10, %4\n"
                  "%9 = bitcast int %8",
    "bcnt": "%7 = lt bool %2, %3\n%8 = ballot_mask MASK %7\n%10 = bcnt uint %8\n%9 = bitcast int %10",
    "dpp add": '%7 = bitcast int %2\n%9 = add int %1, %7 {dpp="row_shr:1", row_mask=15, bank_mask=15, '
               'bound_ctrl=false}',
    "dpp add row_mask": '%7 = bitcast int %2\n%9 = add int %1, %7 {dpp="quad_perm:[2,3,0,1]", row_mask=6, '
                        'bank_mask=15, bound_ctrl=true}',
    "dpp add wwm": '%7 = bitcast int %2 {wwm=true}\n%9 = add int %1, %7 {dpp="row_mirror", row_mask=15, bank_mask=15, '
                   'bound_ctrl=true, wwm=true}',
}


ACTIVE_LANES_ONLY = {"mbcnt", "mbcnt exec", "dpp add", "dpp add row_mask"}


def exec_masks(wave_size: int):
    lanes = np.arange(wave_size)
    rng = np.random.default_rng(wave_size)
    yield "full", np.ones(wave_size, np.uint32)
    yield "every-third-off", (lanes % 3 != 2).astype(np.uint32)
    yield "random", (rng.random(wave_size) < 0.6).astype(np.uint32)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("primitive", list(PRIMITIVES))
def test_lane_exchange_primitive_matches_interpreter(wave_size, primitive):
    mask_type = "uint" if wave_size == 32 else "uint64_t"
    module = read_module(primitive_kernel(wave_size, PRIMITIVES[primitive].replace("MASK", mask_type)))
    group = Group(build_host_module(module))
    rng = np.random.default_rng(11)
    for name, mask in exec_masks(wave_size):
        inputs = {"inp": rng.integers(-1000, 1000, wave_size).astype(np.int32),
                  "aux": rng.integers(0, wave_size, wave_size).astype(np.uint32), "mask": mask,
                  "result": np.full(wave_size, 12345, np.int32)}
        expected = run_wave(module, wave_size, buffers={k: v.copy() for k, v in inputs.items()}).buffers
        assert group.run(inputs) == Status.DONE
        # a VALU result leaves inactive lanes undefined (the interpreter shows 0): compare the
        # active lanes; lane exchanges define the whole register
        lanes = mask != 0 if primitive in ACTIVE_LANES_ONLY else slice(None)
        np.testing.assert_array_equal(inputs["result"][lanes], expected["result"][lanes],
                                      err_msg=f"{primitive}, {name} mask")


# ---------------------------------------------------------------------------------------
# HLSL wave intrinsics: lowered to primitives (the pipeline) and as written
# ---------------------------------------------------------------------------------------

WAVE_OPS = """
StructuredBuffer<uint> mask : register(t0);
StructuredBuffer<float> values : register(t1);
RWStructuredBuffer<uint4> ints : register(u0);
RWStructuredBuffer<float4> floats : register(u1);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float v = values[i];
    uint u = (uint)(v * 7.0) & 255;
    if (mask[i] != 0) {
        uint4 ballot = WaveActiveBallot(u > 100);
        ints[i] = uint4(WaveActiveSum(u), WavePrefixSum(u), WaveActiveMax(u), WaveActiveBitXor(u));
        ints[i + NT] = uint4(ballot.x ^ ballot.y, WaveActiveCountBits(u > 50), WavePrefixCountBits(u & 1),
                             WaveGetLaneIndex() + (WaveIsFirstLane() ? 1000u : 0u));
        ints[i + 2 * NT] = uint4(WaveReadLaneFirst(u), WaveReadLaneAt(u, 3), WaveActiveMin(u),
                                 (WaveActiveAnyTrue(u == 7) ? 1u : 0u) + (WaveActiveAllTrue(u < 255) ? 2u : 0u));
        floats[i] = float4(WaveActiveSum(v), WavePrefixSum(v), WaveActiveMin(v), WaveActiveProduct(v * 0.01 + 1));
        floats[i + NT] = float4(QuadReadAcrossX(v), QuadReadAcrossY(v), QuadReadAcrossDiagonal(v),
                                QuadReadLaneAt(v, 2));
        floats[i + 2 * NT] = float4(WaveReadLaneAt(v, (WaveGetLaneIndex() & ~3) | 1), WaveReadLaneAt(v, u % 5),
                                    WaveActiveAllEqual(u & 0) ? 1.0 : 0.0, WavePrefixProduct(v * 0.01 + 1));
    }
}
"""


def _wave_inputs(threads: int, rng):
    return {"mask": (rng.random(threads) < 0.7).astype(np.uint32),
            "values": rng.uniform(0, 40, threads).astype(np.float32),
            "ints": np.zeros((3 * threads, 4), np.uint32), "floats": np.zeros((3 * threads, 4), np.float32)}


def compile_unlowered(source: str, wave_size: int):
    """The pipeline without wave-op lowering: the JIT meets the HLSL intrinsics themselves."""
    from shc.compiler.pipeline import check_source, lower_program, run_passes
    from shc.compiler.passes.constant_fold import ConstantFold
    from shc.compiler.passes.dead_code import DeadCode
    from shc.compiler.passes.uniformity import Uniformity
    options, diagnostics = Options(wave_size=wave_size), Diagnostics()
    module = lower_program(check_source(dedent(source), "test.hlsl", options, diagnostics), options, diagnostics)
    return run_passes(module, [ConstantFold(), DeadCode(), Uniformity()], options, diagnostics)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("lowered", [True, False], ids=["lowered", "as-written"])
def test_wave_intrinsics_match_interpreter(wave_size, lowered):
    threads = 2 * wave_size - 8  # a partial last wave too
    source = WAVE_OPS.replace("NT", str(threads))
    module = compile_hlsl(source, wave_size) if lowered else compile_unlowered(source, wave_size)
    inputs = _wave_inputs(threads, np.random.default_rng(wave_size))
    actual, expected, _ = run_both(source, wave_size, inputs, module=module)
    assert_same(actual, expected)


# ---------------------------------------------------------------------------------------
# groupshared memory and barriers: waves run region by region
# ---------------------------------------------------------------------------------------

LDS_ROUNDS = """
RWStructuredBuffer<uint> result : register(u0);
groupshared uint tile[NT];
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint acc = i;
    float f = i * 0.5;
    half h = (half)(i % 16) * (half)0.5;          // 16-bit and bool values live across the barriers
    bool odd = (i & 1) != 0;
    for (uint round = 0; round < 4; ++round) {   // a uniform loop with two barriers
        tile[i] = acc * 3 + round;
        GroupMemoryBarrierWithGroupSync();
        acc += tile[(i + 1 + round * 7) % NT];
        f = f * 1.5 + acc;
        GroupMemoryBarrierWithGroupSync();
    }
    result[i] = (acc ^ (uint)f) + (odd ? (uint)(h * (half)4) : 7u);
}
"""


def lds_rounds_expected(threads: int) -> np.ndarray:
    acc = np.arange(threads, dtype=np.uint32)
    f = np.arange(threads, dtype=np.float32) * np.float32(0.5)
    lanes = np.arange(threads)
    for round_ in range(4):
        tile = acc * np.uint32(3) + np.uint32(round_)
        acc = acc + tile[(lanes + 1 + round_ * 7) % threads]
        f = f * np.float32(1.5) + acc.astype(np.float32)
    odd = (lanes & 1) != 0
    bonus = np.where(odd, (lanes % 16) * 2, 7).astype(np.uint32)
    return (acc ^ f.astype(np.uint32)) + bonus


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("waves", [2, 1.5], ids=["two-waves", "partial-wave"])
def test_lds_and_barriers_in_a_uniform_loop(wave_size, waves):
    threads = int(waves * wave_size)
    module = compile_hlsl(LDS_ROUNDS.replace("NT", str(threads)), wave_size)
    kernel = build_host_module(module)
    assert kernel.barriers == 2 and kernel.frame_bytes > 64
    group = Group(kernel)
    result = np.zeros(threads, np.uint32)
    assert group.run({"result": result}) == Status.DONE
    assert group.rounds == 9  # 8 barriers, then the end
    np.testing.assert_array_equal(result, lds_rounds_expected(threads))


DIVERGENT_BARRIER = """
resource @data RWStructuredBuffer<uint> u0 space0
func @main numthreads(W, 1, 1) waveW {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = buffer_load uint %0 {resource="data"}
  %2 = const uint {value=0}
  %3 = ne bool %1, %2
  selection ^end
  cond_br %3, ^then, ^end
^then:
  barrier {scope="group", sync=true}
  buffer_store %0, %2 {resource="data"}
  br ^end
^end:
  ret
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_barrier_reached_by_part_of_the_wave(wave_size):
    module = read_module(DIVERGENT_BARRIER.replace("W", str(wave_size)))
    group = Group(build_host_module(module))
    data = np.ones(wave_size, np.uint32)
    assert group.run({"data": data}) == Status.DONE and group.rounds == 2 and not data.any()
    data = np.ones(wave_size, np.uint32)
    data[5] = 0
    assert group.run({"data": data}) == Status.DIVERGENT_BARRIER


WATCHDOG = """
StructuredBuffer<uint> data : register(t0);
RWStructuredBuffer<uint> result : register(u0);
[numthreads(32, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint n = 0;
    while (data[0] == 0) { n += 1; }    // never ends for data[0] == 0
    result[i] = n;
}
"""


def test_watchdog_stops_a_runaway_loop():
    group = Group(build_host_module(compile_hlsl(WATCHDOG, 32)))
    result = np.zeros(32, np.uint32)
    assert group.run({"data": np.zeros(1, np.uint32), "result": result}, stop=True) == Status.STOPPED
    assert group.run({"data": np.ones(1, np.uint32), "result": result}, stop=False) == Status.DONE


# ---------------------------------------------------------------------------------------
# D3D12 robustness: out-of-bounds reads give 0, writes are dropped
# ---------------------------------------------------------------------------------------

OUT_OF_BOUNDS = """
cbuffer Params : register(b0) { uint limit; uint pad[3]; uint4 table[2]; };
ByteAddressBuffer raw : register(t0);
StructuredBuffer<float2> pairs : register(t1);
RWByteAddressBuffer rawOut : register(u0);
RWStructuredBuffer<uint> result : register(u1);
RWStructuredBuffer<uint> arrays[2] : register(u2);
groupshared uint tile[8];
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint2 a = raw.Load2(i * 6);                      // unaligned; past the end reads 0
    rawOut.Store3(i * 10, uint3(a, i));              // past the end is dropped
    float2 p = pairs[i * 3];
    tile[i % 8] = i;
    uint s = tile[i];                              // past the groupshared array: 0
    tile[i + 4] = s + 1;                           // dropped past its end
    result[i * 2] = a.x ^ a.y ^ s;
    result[i * 2 + 1] = asuint(p.x + p.y) + table[i % 3].y;
    arrays[i % 3][i] = i + 1;                        // element 2 does not exist: dropped
    arrays[NonUniformResourceIndex(i % 3)][i + 40] = arrays[i % 3][i / 2] + limit;
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_out_of_bounds_accesses_follow_d3d12(wave_size):
    threads = wave_size
    source = OUT_OF_BOUNDS.replace("NT", str(threads))
    rng = np.random.default_rng(5)
    params = struct.pack("<4I", 7, 0, 0, 0) + np.arange(8, dtype=np.uint32).tobytes()
    buffers = {"raw": rng.integers(0, 1 << 32, 50, dtype=np.uint32),
               "pairs": rng.uniform(-1, 1, (20, 2)).astype(np.float32),
               "rawOut": np.zeros(60, np.uint32), "result": np.zeros(2 * threads, np.uint32),
               "arrays": [np.zeros(100, np.uint32), np.zeros(70, np.uint32)]}
    actual, expected, _ = run_both(source, wave_size, buffers, {"Params": params})
    assert_same(actual, expected)


# ---------------------------------------------------------------------------------------
# atomics
# ---------------------------------------------------------------------------------------

ATOMICS = """
RWStructuredBuffer<uint> counter : register(u0);
RWStructuredBuffer<int> result : register(u1);
groupshared int tile[4];
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint old;
    InterlockedAdd(counter[0], i + 1, old);
    int a, b, c, d, e;
    InterlockedMin(tile[1], (int)i * 7 - 100, a);
    InterlockedMax(tile[2], (int)(i * 13 % 17), b);
    InterlockedCompareExchange(tile[3], (int)(i % 4), (int)i + 1, c);
    InterlockedExchange(tile[0], (int)i, d);
    InterlockedXor(counter[1], 1u << (i % 32));
    InterlockedOr(counter[2], i * 3);
    uint f;
    InterlockedMax(counter[3], i * 0x9E3779B9u, f);
    InterlockedAdd(counter[100], 1u, e);             // out of bounds: no effect, returns 0
    result[i * 6] = (int)old;
    result[i * 6 + 1] = a;
    result[i * 6 + 2] = b;
    result[i * 6 + 3] = c;
    result[i * 6 + 4] = d + e;
    result[i * 6 + 5] = (int)f;
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_atomics_run_lane_by_lane(wave_size):
    threads = wave_size - 5
    source = ATOMICS.replace("NT", str(threads))
    buffers = {"counter": np.array([10, 0, 0, 0], np.uint32), "result": np.zeros(6 * threads, np.int32)}
    actual, expected, group = run_both(source, wave_size, buffers)
    assert_same(actual, expected)
    assert group.stats["atomics"] == 9


ATOMIC_COUNTER = """
RWStructuredBuffer<uint> counter : register(u0);
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex) {
    for (uint k = 0; k < 100; ++k) {
        InterlockedAdd(counter[0], 1u);
    }
}
"""


def test_atomics_are_atomic_across_host_threads():
    import threading
    first = Group(build_host_module(compile_hlsl(ATOMIC_COUNTER, 32)))
    counter = np.zeros(1, np.uint32)
    groups = [first] + [Group(first.kernel, compiled=first) for _ in range(3)]
    threads = [threading.Thread(target=group.run, args=({"counter": counter},)) for group in groups]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counter[0] == 4 * 64 * 100


# ---------------------------------------------------------------------------------------
# textures
# ---------------------------------------------------------------------------------------

TEXTURE_LOADS = """
Texture2D<float4> image : register(t0);
Texture2DArray<float4> layers : register(t1);
Texture3D<float4> volume : register(t2);
RWTexture2D<float4> target : register(u0);
RWStructuredBuffer<float4> result : register(u1);
RWStructuredBuffer<uint4> sizes : register(u2);
globallycoherent RWTexture2D<float4> board : register(u3);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    int x = (int)(i % 9) - 1, y = (int)(i / 9) - 1;      // a border of out-of-range texels
    result[i] = image.Load(int3(x, y, i % 3));           // mip 2 does not exist
    result[i + NT] = layers.Load(int4(x, y, i % 4, 0));  // slice 3 does not exist
    result[i + 2 * NT] = image[uint2(x, y)] + board[uint2(y, x)];
    result[i + 3 * NT] = volume.Load(int4(x, y, i % 4, i % 2));
    target[uint2(y, x)] = float4(i, x, y, 1);
    uint w, h, levels, w2, h2, elements;
    image.GetDimensions(i % 3, w, h, levels);
    layers.GetDimensions(w2, h2, elements);
    sizes[i] = uint4(w, h, levels, w2 * 100 + h2 * 10 + elements);
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_texture_loads_stores_and_sizes_match_interpreter(wave_size):
    threads = 2 * wave_size
    rng = np.random.default_rng(9)
    image = [rng.uniform(0, 1, (6, 8, 4)).astype(np.float32), rng.uniform(0, 1, (3, 4, 4)).astype(np.float32)]
    volume = [rng.uniform(0, 1, (3, 4, 5, 4)).astype(np.float32), rng.uniform(0, 1, (1, 2, 2, 4)).astype(np.float32)]
    buffers = {"image": image, "layers": rng.uniform(0, 1, (3, 5, 7, 4)).astype(np.float32), "volume": volume,
               "board": rng.uniform(0, 1, (6, 8, 4)).astype(np.float32),
               "target": np.zeros((7, 9, 4), np.float32), "result": np.zeros((4 * threads, 4), np.float32),
               "sizes": np.zeros((threads, 4), np.uint32)}
    actual, expected, _ = run_both(TEXTURE_LOADS.replace("NT", str(threads)), wave_size, buffers)
    assert_same(actual, expected)


SAMPLES = """
Texture2D<float4> image : register(t0);
Texture2DArray<float4> layers : register(t1);
SamplerState smp : register(s0);
StructuredBuffer<float4> coords : register(t2);
RWStructuredBuffer<float4> result : register(u0);
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float4 c = coords[i];
    result[i] = image.SampleLevel(smp, c.xy, c.z);
    result[i + 64] = image.SampleLevel(smp, c.xy, 0, int2(1, -2));
    result[i + 128] = layers.SampleLevel(smp, float3(c.xy, c.w), 0.0);
}
"""


BORDER = np.array([0.25, 0.5, 0.75, 1.0])


def _address(i: np.ndarray, n: int, mode: int):
    """Texel index through an address mode: (index, inside) (border: outside reads BORDER)."""
    if mode == 0:
        return np.clip(i, 0, n - 1), np.ones(i.shape, bool)
    if mode == 1:
        return np.mod(i, n), np.ones(i.shape, bool)
    if mode == 2:
        k = np.mod(i, 2 * n)
        return np.where(k < n, k, 2 * n - 1 - k), np.ones(i.shape, bool)
    inside = (i >= 0) & (i < n)
    return np.clip(i, 0, n - 1), inside


def _sample_level(level: np.ndarray, u, v, linear: bool, mode: int, offset=(0, 0)):
    h, w = level.shape[:2]
    u, v = u.astype(np.float64), v.astype(np.float64)
    if not linear:
        (x, xin), (y, yin) = _address(np.floor(u * w + offset[0]).astype(int), w, mode), \
            _address(np.floor(v * h + offset[1]).astype(int), h, mode)
        return np.where((xin & yin)[:, None], level[y, x], BORDER)
    fx, fy = u * w - 0.5 + offset[0], v * h - 0.5 + offset[1]
    x0, y0 = np.floor(fx), np.floor(fy)
    a, b = (fx - x0)[:, None], (fy - y0)[:, None]
    texels = {}
    for dx in (0, 1):
        for dy in (0, 1):
            (x, xin), (y, yin) = _address(x0.astype(int) + dx, w, mode), _address(y0.astype(int) + dy, h, mode)
            texels[dx, dy] = np.where((xin & yin)[:, None], level[y, x], BORDER)
    top = texels[0, 0] + a * (texels[1, 0] - texels[0, 0])
    bottom = texels[0, 1] + a * (texels[1, 1] - texels[0, 1])
    return top + b * (bottom - top)


def sample_reference(mips, u, v, lod, linear: bool, mode: int, offset=(0, 0)):
    """SampleLevel as host_textures documents it: point takes the nearest mip, linear is trilinear."""
    lod = np.clip(lod, 0, len(mips) - 1)
    if not linear:
        nearest = np.floor(lod + 0.5).astype(int)
        out = np.zeros((len(u), 4))
        for m in range(len(mips)):
            pick = nearest == m
            out[pick] = _sample_level(mips[m], u[pick], v[pick], False, mode, offset)
        return out
    base = np.floor(lod).astype(int)
    blend = (lod - base)[:, None]
    out = np.zeros((len(u), 4))
    for m in range(len(mips)):
        pick = base == m
        near = _sample_level(mips[m], u[pick], v[pick], True, mode, offset)
        far = _sample_level(mips[min(m + 1, len(mips) - 1)], u[pick], v[pick], True, mode, offset)
        out[pick] = near + blend[pick] * (far - near)
    return out


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("linear", [False, True], ids=["point", "linear"])
@pytest.mark.parametrize("mode", [0, 1, 2, 3], ids=["clamp", "wrap", "mirror", "border"])
def test_sample_level(wave_size, linear, mode):
    rng = np.random.default_rng(mode)
    mips = [rng.uniform(0, 1, (5, 6, 4)).astype(np.float32), rng.uniform(0, 1, (2, 3, 4)).astype(np.float32)]
    layers = rng.uniform(0, 1, (3, 4, 4, 4)).astype(np.float32)
    coords = np.stack([rng.uniform(-1.5, 2.5, 64), rng.uniform(-1.5, 2.5, 64), rng.uniform(-0.5, 1.7, 64),
                       rng.uniform(-1, 3.4, 64)], axis=1).astype(np.float32)
    result = np.zeros((192, 4), np.float32)
    group = Group(build_host_module(compile_hlsl(SAMPLES, wave_size)))
    status = group.run({"image": mips, "layers": layers, "smp": (int(linear), mode, BORDER), "coords": coords,
                        "result": result})
    assert status == Status.DONE
    u, v, lod, w = (coords[:, k] for k in range(4))
    np.testing.assert_allclose(result[:64], sample_reference(mips, u, v, lod, linear, mode), atol=2e-6)
    np.testing.assert_allclose(result[64:128], sample_reference(mips, u, v, np.zeros(64), linear, mode, (1, -2)),
                               atol=2e-6)
    layer = np.clip(np.floor(w + 0.5), 0, 2).astype(int)
    expected = np.zeros((64, 4))
    for index in range(3):
        pick = layer == index
        expected[pick] = sample_reference([layers[index]], u[pick], v[pick], np.zeros(pick.sum()), linear, mode)
    np.testing.assert_allclose(result[128:], expected, atol=2e-6)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_nonuniform_texture_array_sample(wave_size):
    """samples/texture_array_nonuniform.hlsl: an unbounded array, a waterfall loop, a sampler."""
    with open("samples/texture_array_nonuniform.hlsl") as handle:
        source = handle.read()
    threads = 64
    rng = np.random.default_rng(2)
    textures = [rng.uniform(0, 1, (4, 4, 4)).astype(np.float32) for _ in range(3)]
    ids = rng.integers(0, 3, threads).astype(np.uint32)
    uvs = rng.uniform(0, 1, (threads, 2)).astype(np.float32)
    colors = np.zeros((threads, 4), np.float32)
    group = Group(build_host_module(compile_hlsl(source, wave_size)))
    count = threads - 3
    status = group.run({"sampleConstants": struct.pack("<2I", count, 1), "materialIds": ids, "uvs": uvs,
                        "textures": textures, "linearSampler": (1, 0), "colors": colors})
    assert status == Status.DONE
    expected = np.zeros((threads, 4))
    detail = sample_reference([textures[1]], uvs[:, 0], uvs[:, 1], np.zeros(threads), True, 0)
    for index in range(3):
        pick = ids == index
        expected[pick] = sample_reference([textures[index]], uvs[pick, 0], uvs[pick, 1], np.zeros(pick.sum()),
                                          True, 0) * detail[pick]
    np.testing.assert_allclose(colors[:count], expected[:count], atol=2e-6)
    assert not colors[count:].any()


SCRATCH = """
StructuredBuffer<uint> data : register(t0);
RWStructuredBuffer<uint> result : register(u0);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float4 v[8];
    uint w[5];
    for (uint k = 0; k < 8; ++k) v[k] = float4(k, i, k * i, 1);
    for (uint m = 0; m < 5; ++m) w[m] = data[(i + m) % NT];
    uint j = data[i] % 8;
    v[j].y += 100;
    result[i] = (uint)v[(j + 3) % 8].y + (uint)v[j].y + w[j % 5] + w[data[i] % 7];   // w[5], w[6]: past the end
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_scratch_arrays_match_interpreter(wave_size):
    threads = wave_size + 16
    source = SCRATCH.replace("NT", str(threads))
    module = compile_hlsl(source, wave_size)
    assert any(inst.op.value == "scratch_store" for inst in module.function.instructions())
    data = np.random.default_rng(4).integers(0, 1000, threads).astype(np.uint32)
    actual, expected, _ = run_both(source, wave_size, {"data": data, "result": np.zeros(threads, np.uint32)},
                                   module=module)
    assert_same(actual, expected)


STATISTICS = """
StructuredBuffer<uint> data : register(t0);
RWStructuredBuffer<uint> result : register(u0);
groupshared uint tile[64];
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint acc = data[i];
    for (uint k = 0; k < acc % 5; ++k) { acc += WaveActiveSum(k) + QuadReadAcrossX(acc); }
    tile[i % 64] = acc;
    InterlockedAdd(tile[0], 1);
    if (WaveIsFirstLane()) acc += tile[(i + 1) % 64];
    result[i] = acc;
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_statistics_match_interpreter(wave_size):
    threads = wave_size + 8
    source = STATISTICS.replace("NT", str(threads))
    data = np.arange(threads, dtype=np.uint32) * 3
    actual, expected, group = run_both(source, wave_size, {"data": data, "result": np.zeros(threads, np.uint32)})
    assert_same(actual, expected)
    stats = [state.stats for state in group.interpreter_states]
    for name in ("valu", "salu", "lane_exchange", "lds", "vmem"):
        assert group.stats[name] == sum(s.counts.get(name, 0) for s in stats), name
    assert group.stats["instructions"] == sum(s.instructions for s in stats)
    assert group.stats["active_lanes"] == sum(s.active_lane_sum for s in stats)
    assert group.stats["atomics"] == len(stats)  # one InterlockedAdd per wave


# ---------------------------------------------------------------------------------------
# SPD: every group of a 128 x 128 mip chain, the last group finishing it
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("wave_size, defines", [(32, {}), (64, {"A_HALF": "1"}), (32, {"SPD_LINEAR_SAMPLER": "1"})],
                         ids=["wave32", "wave64-half", "wave32-sampler"])
def test_spd_builds_the_mip_chain(wave_size, defines):
    from shc.compiler.pipeline import compile_file
    module = compile_file("samples/spd.hlsl", Options(wave_size=wave_size, defines=defines), Diagnostics())
    group = Group(build_host_module(module))
    size, mips = 128, 7
    source = np.random.default_rng(0).uniform(0, 1, (1, size, size, 4)).astype(np.float32)
    targets = [np.zeros((1, max(1, size >> (k + 1)), max(1, size >> (k + 1)), 4), np.float32) for k in range(12)]
    constants = struct.pack("<4I", mips, 4, 0, 0) + struct.pack("<2f", 1 / size, 1 / size)
    resources = {"spdConstants": constants, "imgSrc": source, "spdGlobalAtomic": np.zeros(1, np.uint32),
                 "imgDst": targets, "imgDst6": targets[5], "srcSampler": (1, 0)}
    for group_id in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)]:
        assert group.run(resources, group_id) == Status.DONE
    assert resources["spdGlobalAtomic"][0] == 0  # the last group reset the counter
    expected = source[0].astype(np.float64)
    tolerance = 2e-3 if "A_HALF" in defines else 1e-6
    for level in range(mips):
        expected = expected.reshape(expected.shape[0] // 2, 2, expected.shape[1] // 2, 2, 4).mean(axis=(1, 3))
        np.testing.assert_allclose(targets[level][0], expected, atol=tolerance, err_msg=f"mip {level + 1}")


NESTED_FLOW = """
StructuredBuffer<uint> data : register(t0);
RWStructuredBuffer<uint4> result : register(u0);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint n = data[i], total = 0, inner = 0, k = 0;
    for (uint a = 0; a < 6; ++a) {              // uniform outer loop
        switch ((a + i) % 4) {
            case 0: total += 1; continue;           // continue from inside a switch
            case 1: total += 10; break;
            case 2: if (n & 1) { total += 100; break; } total += 5;   // divergent break out of the switch
            default: total += 1000;
        }
        for (uint b = 0; b < n; ++b) {           // divergent inner loop
            inner += b;
            if (inner > 40) break;
        }
        if (total > 3000 && (i & 2)) break;       // divergent break out of the outer loop
    }
    do { k += 3; } while (k < n * 2);            // a do-while with a divergent exit
    result[i] = uint4(total, inner, k, n);
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_nested_loops_and_switches_match_interpreter(wave_size):
    threads = wave_size + 24
    source = NESTED_FLOW.replace("NT", str(threads))
    data = (np.arange(threads, dtype=np.uint32) * 5) % 13
    actual, expected, _ = run_both(source, wave_size, {"data": data, "result": np.zeros((threads, 4), np.uint32)})
    assert_same(actual, expected)
