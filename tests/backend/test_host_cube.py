"""Host JIT: SampleLevel on TextureCube / TextureCubeArray (D3D face selection, then 2-D
filtering clamped to the face) and on Texture3D (point and trilinear, each address mode),
against NumPy references; GetDimensions on cubes; wave32 and wave64."""

import numpy as np
import pytest

import shc


@pytest.fixture(autouse=True)
def kernel_cache(tmp_path_factory, monkeypatch):
    from shc.runtime import jit
    directory = tmp_path_factory.getbasetemp() / "cube-kernels"
    monkeypatch.setattr(jit, "default_cache_dir", lambda: directory)
    return directory


def _address(value, size, address):
    """Wrapped index and whether it is inside (border mode)."""
    inside = np.ones(value.shape, bool)
    if address == "clamp":
        value = np.clip(value, 0, size - 1)
    elif address == "wrap":
        value = np.mod(value, size)
    elif address == "mirror":
        value = np.mod(value, 2 * size)
        value = np.where(value >= size, 2 * size - 1 - value, value)
    else:
        inside = (value >= 0) & (value < size)
        value = np.clip(value, 0, size - 1)
    return value, inside




def sample_nd(volume, coords, filter, address, layer=None, border=(0.0, 0.0, 0.0, 0.0)):
    depth, height, width, _ = volume.shape
    sizes = [width, height, depth][:coords.shape[1]]
    n = coords.shape[0]
    scaled = [coords[:, axis].astype(np.float64) * sizes[axis] for axis in range(len(sizes))]
    if filter == "point":
        starts = [np.floor(s).astype(np.int64) for s in scaled]
        fractions = [np.zeros(n) for _ in scaled]
    else:
        shifted = [s - 0.5 for s in scaled]
        starts = [np.floor(s).astype(np.int64) for s in shifted]
        fractions = [s - st for s, st in zip(shifted, starts)]
    result = np.zeros((n, 4))
    for corner in range(1 << len(sizes)):
        weight = np.ones(n)
        index, inside = [], np.ones(n, bool)
        for axis, size in enumerate(sizes):
            step = (corner >> axis) & 1
            weight = weight * (fractions[axis] if step else 1 - fractions[axis])
            value, ok = _address(starts[axis] + step, size, address)
            index.append(value)
            inside &= ok
        z = index[2] if len(index) > 2 else layer
        texel = volume[z, index[1], index[0]].astype(np.float64)
        texel[~inside] = border
        result += weight[:, None] * texel
    return result


def cube_face(direction):
    """D3D cube addressing: face 0..5 (+X, -X, +Y, -Y, +Z, -Z) and the face's (u, v)."""
    x, y, z = (direction[:, i].astype(np.float64) for i in range(3))
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    z_major = (az >= ay) & (az >= ax)
    y_major = ~z_major & (ay >= ax)
    x_major = ~z_major & ~y_major
    face = np.where(z_major, np.where(z >= 0, 4, 5), np.where(y_major, np.where(y >= 0, 2, 3),
                                                                np.where(x >= 0, 0, 1)))
    major = np.where(z_major, az, np.where(y_major, ay, ax))
    sc = np.where(z_major, np.where(z >= 0, x, -x), np.where(y_major, x, np.where(x >= 0, -z, z)))
    tc = np.where(z_major, -y, np.where(y_major, np.where(y >= 0, z, -z), -y))
    assert x_major.any() and y_major.any() and z_major.any()
    return face, np.stack([(sc / major + 1) / 2, (tc / major + 1) / 2], axis=1)


def reference_cube(faces, direction, filter, cube=None):
    face, uv = cube_face(direction)
    layer = face if cube is None else face + 6 * cube
    return sample_nd(faces, uv, filter, "clamp", layer=layer)


CUBE = """
TextureCube<float4> tex; SamplerState s; StructuredBuffer<float3> dirs; RWStructuredBuffer<float4> dst;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { dst[id.x] = tex.SampleLevel(s, dirs[id.x], 0); }
"""

CUBE_ARRAY = """
TextureCubeArray<float4> tex; SamplerState s; StructuredBuffer<float4> dirs; RWStructuredBuffer<float4> dst;
RWStructuredBuffer<uint4> dims;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    dst[id.x] = tex.SampleLevel(s, dirs[id.x], 0);
    uint w, h, n;
    tex.GetDimensions(w, h, n);
    dims[id.x] = uint4(w, h, n, 0);
}
"""

VOLUME = """
Texture3D<float4> tex; SamplerState s; StructuredBuffer<float3> uvw; RWStructuredBuffer<float4> dst;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { dst[id.x] = tex.SampleLevel(s, uvw[id.x], 0); }
"""


def _directions(rng, count):
    directions = rng.uniform(-1, 1, (count, 3)).astype(np.float32)
    # exact ties between the major axes: z beats y and x, y beats x
    directions[:6] = [[1, 1, 1], [-1, 1, -1], [0.5, -0.5, 0.25], [-0.5, 0.5, 0.1], [1, 0, 1], [0.3, -0.3, 0.3]]
    return directions


@pytest.mark.parametrize("wave_size", [32, 64])
@pytest.mark.parametrize("filter", ["point", "linear"])
def test_cube_sample_level(wave_size, filter):
    kernel = shc.compile(CUBE, wave_size=wave_size)
    rng = np.random.default_rng(5)
    faces = rng.random((6, 4, 5, 4)).astype(np.float32)
    directions = _directions(rng, 256)
    dst = np.zeros((256, 4), np.float32)
    kernel.dispatch((4, 1, 1), tex=faces, s=shc.Sampler(filter=filter, address="wrap"), dirs=directions, dst=dst)
    assert np.allclose(dst, reference_cube(faces, directions, filter), atol=2e-5)


def test_cube_faces_by_axis():
    kernel = shc.compile(CUBE)
    faces = np.zeros((6, 2, 2, 4), np.float32)
    faces[:, :, :, 0] = np.arange(6)[:, None, None]
    axes = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], np.float32)
    directions = np.tile(axes, (11, 1))[:64]
    dst = np.zeros((64, 4), np.float32)
    kernel.dispatch((1, 1, 1), tex=faces, s=shc.Sampler(filter="point"), dirs=directions, dst=dst)
    assert np.array_equal(dst[:, 0], np.tile(np.arange(6), 11)[:64])


@pytest.mark.parametrize("wave_size", [32, 64])
@pytest.mark.parametrize("filter", ["point", "linear"])
def test_cube_array_sample_level_and_dimensions(wave_size, filter):
    kernel = shc.compile(CUBE_ARRAY, wave_size=wave_size)
    rng = np.random.default_rng(6)
    faces = rng.random((18, 3, 4, 4)).astype(np.float32)
    directions = _directions(rng, 128)
    slices = rng.uniform(-0.7, 3.2, 128).astype(np.float32)
    dirs = np.concatenate([directions, slices[:, None]], axis=1)
    dst = np.zeros((128, 4), np.float32)
    dims = np.zeros((128, 4), np.uint32)
    kernel.dispatch((2, 1, 1), tex=faces, s=shc.Sampler(filter=filter), dirs=dirs, dst=dst, dims=dims)
    cube = np.clip(np.floor(slices.astype(np.float64) + 0.5), 0, 2).astype(np.int64)
    assert np.allclose(dst, reference_cube(faces, directions, filter, cube=cube), atol=2e-5)
    assert (dims == [4, 3, 3, 0]).all()


@pytest.mark.parametrize("wave_size", [32, 64])
@pytest.mark.parametrize("filter", ["point", "linear"])
@pytest.mark.parametrize("address", ["clamp", "wrap", "mirror", "border"])
def test_texture3d_sample_level(wave_size, filter, address):
    kernel = shc.compile(VOLUME, wave_size=wave_size)
    rng = np.random.default_rng(7)
    volume = rng.random((3, 5, 4, 4)).astype(np.float32)
    uvw = rng.uniform(-1.5, 2.5, (128, 3)).astype(np.float32)
    border = (0.25, 0.5, 0.75, 1.0)
    sampler = shc.Sampler(filter=filter, address=address, border=border)
    dst = np.zeros((128, 4), np.float32)
    kernel.dispatch((2, 1, 1), tex=volume, s=sampler, uvw=uvw, dst=dst)
    assert np.allclose(dst, sample_nd(volume, uvw, filter, address, border=border), atol=2e-5)


def test_interpreter_reports_cube_sampling_as_unsupported():
    """Cubes are the JIT's alone (Texture3D SampleLevel runs in the interpreter too:
    tests/backend/test_executors_agree_textures.py)."""
    from shc.compiler.ir.interpret.run import InterpretError, run_wave
    from shc.compiler.ir.reader import read_module
    kernel = shc.compile(CUBE)
    inputs = {"dirs": np.zeros((64, 3), np.float32), "dst": np.zeros((64, 4), np.float32),
              "tex": np.zeros((6, 2, 2, 4), np.float32), "s": shc.Sampler()}
    with pytest.raises(InterpretError, match="not supported by the interpreter"):
        run_wave(read_module(kernel.ir), 32, buffers=inputs)
