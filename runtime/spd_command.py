"""``shc spd INPUT -o OUTDIR``: an image file through SPD, every mip and a contact sheet written.

    report = command("photo.png", "out/", mips=None, wave_ops=True, linear_sampler=False,
                     packed=False, wave_size=32)

Reading: a ``.npy`` array as stored (float64 becomes float32), anything else through
Pillow: 8-bit modes stay uint8 (palettes and CMYK become RGB/RGBA), 16-bit modes become
float32 / 65535, ``F`` float32; every frame of a multi-page file becomes an array slice.

Writing (``write_chain``): ``mip_01.png`` .. for uint8 images; ``mip_01.npy`` .. plus PNG
previews for float ones (mapped from [0, 1], or from the image's range when it leaves
[0, 1]); ``_sliceNN`` per array slice; ``chain.png``, the source and its mips side by
side, halving, one row per slice. The report has the dispatch, the kernel's register
line (``render_listing`` figures) and the dispatch statistics.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .spd import SAMPLE, Downsampler, as_slices, spd_setup

__all__ = ["SpdInputError", "chain_sheet", "command", "contact_sheet", "load_image", "png_bytes", "register_line",
           "write_chain"]


class SpdInputError(ValueError):
    """A problem with what ``shc spd`` was given; printed as ``shc: error: ...``."""


def _pillow():
    try:
        from PIL import Image
    except ImportError:
        raise SpdInputError("reading and writing images needs Pillow: pip install 'pillow>=10'") from None
    return Image


# Pillow modes read as they are (8-bit UNORM) and the modes others are converted to.
_PILLOW_8BIT = {"L": 1, "LA": 2, "RGB": 3, "RGBA": 4}
_PILLOW_16BIT = ("I;16", "I;16B", "I;16L", "I;16N", "I")
_PILLOW_CONVERT = {"1": "L", "P": "RGBA", "PA": "RGBA", "La": "LA", "RGBa": "RGBA", "RGBX": "RGB",
                   "CMYK": "RGB", "YCbCr": "RGB", "LAB": "RGB", "HSV": "RGB"}
_PNG_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}


def _frame_array(frame) -> np.ndarray:
    """One Pillow frame as (H, W, C): uint8 for 8-bit modes, float32 for 16-bit (/ 65535) and float."""
    mode = frame.mode
    if mode in _PILLOW_CONVERT:
        mode = _PILLOW_CONVERT[mode]
        if frame.mode == "P" and "transparency" not in frame.info:
            mode = "RGB"
        frame = frame.convert(mode)
    array = np.asarray(frame)
    if mode in _PILLOW_8BIT:
        return array.reshape(array.shape[:2] + (_PILLOW_8BIT[mode],)).astype(np.uint8, copy=False)
    if mode in _PILLOW_16BIT:
        return (array.astype(np.float32) / np.float32(65535.0))[..., None]
    if mode == "F":
        return array.astype(np.float32)[..., None]
    return np.asarray(frame.convert("RGBA"))


def load_image(path) -> np.ndarray:
    """An image for ``downsample``: a .npy array as stored (float64 becomes float32), else
    every frame Pillow reads (a multi-page TIFF becomes array slices)."""
    path = Path(path)
    if not path.is_file():
        raise SpdInputError(f"{path}: no such file")
    if path.suffix.lower() == ".npy":
        try:
            array = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as failure:
            raise SpdInputError(f"{path}: not a readable .npy file ({failure})") from None
        if array.dtype == np.float64:
            array = array.astype(np.float32)
        return array
    image_module = _pillow()
    try:
        with image_module.open(path) as picture:
            frames = []
            for index in range(getattr(picture, "n_frames", 1)):
                picture.seek(index)
                frames.append(_frame_array(picture))
    except (OSError, image_module.UnidentifiedImageError) as failure:
        raise SpdInputError(f"{path}: Pillow cannot read it ({failure})") from None
    if len(frames) == 1:
        return frames[0]
    if any(frame.shape != frames[0].shape or frame.dtype != frames[0].dtype for frame in frames):
        raise SpdInputError(f"{path}: its {len(frames)} frames differ in size or format; SPD takes slices of "
                            f"one size")
    return np.stack(frames)


def _preview(level: np.ndarray, low: float, high: float) -> np.ndarray:
    """A (h, w, C) mip as 8-bit pixels: uint8 as it is, floats mapped from [low, high] to [0, 255]."""
    if level.dtype == np.uint8:
        return level
    values = (level.astype(np.float32) - np.float32(low)) / np.float32(high - low if high > low else 1.0)
    return np.rint(np.clip(np.nan_to_num(values, nan=0.0), 0.0, 1.0) * 255.0).astype(np.uint8)


def _preview_range(image: np.ndarray) -> tuple[float, float]:
    """[0, 1] when the image lies in it, else its finite min and max."""
    if image.dtype == np.uint8:
        return 0.0, 1.0
    finite = image[np.isfinite(image)]
    if finite.size == 0:
        return 0.0, 1.0
    low, high = float(finite.min()), float(finite.max())
    return (0.0, 1.0) if low >= 0.0 and high <= 1.0 else (low, high)


def _save_png(pixels: np.ndarray, path: Path) -> None:
    image_module = _pillow()
    channels = pixels.shape[-1]
    data = pixels[..., 0] if channels == 1 else pixels
    picture = image_module.fromarray(np.ascontiguousarray(data))
    if picture.mode != _PNG_MODES[channels]:
        picture = picture.convert(_PNG_MODES[channels])
    picture.save(path)


def contact_sheet(levels: list[np.ndarray]) -> np.ndarray:
    """Mips side by side on one canvas, left to right, top-aligned: (h0, sum of widths, C) uint8 pixels."""
    height = levels[0].shape[0]
    width = sum(level.shape[1] for level in levels)
    canvas = np.zeros((height, width, levels[0].shape[2]), dtype=np.uint8)
    x = 0
    for level in levels:
        h, w = level.shape[:2]
        canvas[:h, x:x + w] = level
        x += w
    return canvas


def write_chain(outdir, image: np.ndarray, mips: list[np.ndarray]) -> list[Path]:
    """Every mip (PNG for uint8 images; .npy plus a PNG preview for float ones) and ``chain.png``."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    slices, _ = as_slices(image)
    levels = [as_slices(mip)[0] for mip in mips]
    low, high = _preview_range(slices)
    eight_bit = slices.dtype == np.uint8
    written: list[Path] = []
    for number, (mip, level) in enumerate(zip(mips, levels), start=1):
        if not eight_bit:
            written.append(outdir / f"mip_{number:02d}.npy")
            np.save(written[-1], mip)
        for index in range(level.shape[0]):
            suffix = "" if level.shape[0] == 1 else f"_slice{index:02d}"
            written.append(outdir / f"mip_{number:02d}{suffix}.png")
            _save_png(_preview(level[index], low, high), written[-1])
    written.append(outdir / "chain.png")
    _save_png(chain_sheet(image, mips), written[-1])
    return written


def chain_sheet(image: np.ndarray, mips: list[np.ndarray]) -> np.ndarray:
    """The source and its mips side by side, halving, one row per array slice: 8-bit (H, W, C) pixels."""
    slices, _ = as_slices(image)
    levels = [as_slices(mip)[0] for mip in mips]
    low, high = _preview_range(slices)
    rows = [contact_sheet([_preview(level[index], low, high) for level in [slices] + levels])
            for index in range(slices.shape[0])]
    sheet = np.zeros((sum(row.shape[0] for row in rows), rows[0].shape[1], rows[0].shape[2]), dtype=np.uint8)
    y = 0
    for row in rows:
        sheet[y:y + row.shape[0]] = row
        y += row.shape[0]
    return sheet


def png_bytes(pixels: np.ndarray) -> bytes:
    """8-bit (H, W, C) pixels as a PNG file's bytes."""
    import io

    image_module = _pillow()
    channels = pixels.shape[-1]
    picture = image_module.fromarray(np.ascontiguousarray(pixels[..., 0] if channels == 1 else pixels))
    if picture.mode != _PNG_MODES[channels]:
        picture = picture.convert(_PNG_MODES[channels])
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()


def register_line(kernel) -> str:
    """``registers: wave32 44 VGPRs (48 allocated), ...`` from the RDNA2 listing of ``kernel``."""
    from ..compiler.backend.rdna2.listing import render_listing

    listing = render_listing(kernel.module)
    return (f"registers   wave{listing.wave_size}: {listing.vgprs} VGPRs ({listing.vgprs_allocated} allocated), "
            f"{listing.sgprs} SGPRs, LDS {listing.lds_bytes} bytes, scratch {listing.scratch_bytes} bytes, "
            f"occupancy {listing.occupancy} waves/SIMD (limited by {listing.limiter})")


def _describe_image(path, image: np.ndarray) -> str:
    slices, _ = as_slices(image)
    count, height, width, channels = slices.shape
    layers = "" if count == 1 else f" x {count} slices"
    return f"{path}: {width} x {height}{layers}, {channels} channel{'s' if channels > 1 else ''}, {image.dtype}"


def command(input_path, outdir, mips: int | None = None, wave_ops: bool = True, linear_sampler: bool = False,
            packed: bool = False, wave_size: int = 32, progress=None) -> str:
    """``shc spd``: downsample an image file, write the chain, return the report to print.
    ``progress``, if given, hears each step as ``progress.update(description=...)``."""
    step = (lambda text: None) if progress is None else (lambda text: progress.update(description=text))
    step(f"reading {input_path}")
    image = load_image(input_path)
    try:
        as_slices(image)
    except (TypeError, ValueError) as failure:
        raise SpdInputError(f"{input_path}: {failure}") from None
    slices, _ = as_slices(image)
    try:
        spd_setup(slices.shape[2], slices.shape[1], mips, slices=slices.shape[0])
    except ValueError as failure:
        raise SpdInputError(str(failure) if mips is None else f"--mips {mips}: {failure}") from None
    spd = Downsampler(wave_ops=wave_ops, linear_sampler=linear_sampler, packed=packed, wave_size=wave_size)
    step("compiling and running the downsampler")
    result = spd.run(image, mips)
    step(f"writing {len(result.mips)} mips to {outdir}")
    written = write_chain(outdir, image, result.mips)
    setup = result.setup
    defines = ", ".join(spd.defines) or "none"
    lines = [
        f"input       {_describe_image(input_path, image)}",
        f"kernel      {SAMPLE.name}, wave{wave_size}, defines: {defines} "
        f"({'from the disk cache' if spd.kernel.from_cache else 'compiled'})",
        f"dispatch    {' x '.join(map(str, setup.dispatch))} groups, numWorkGroups {setup.num_work_groups}, "
        f"workGroupOffset {setup.work_group_offset}, mips {setup.mips}",
    ]
    try:
        lines.append(register_line(spd.kernel))
    except Exception as failure:  # noqa: BLE001 - the report is extra; the mips are written
        lines.append(f"registers   unavailable: the RDNA2 back end failed ({type(failure).__name__}: {failure})")
    if result.stats is not None:
        lines += ["", result.stats.format()]
    lines += ["", f"wrote {len(written) - 1} file{'s' if len(written) != 2 else ''} for {setup.mips} mips to "
                  f"{Path(outdir)}, and the contact sheet {written[-1]}"]
    return "\n".join(lines)
