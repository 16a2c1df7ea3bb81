"""``shc run``: compile a file, bind files, shapes, samplers and constants, dispatch, save, report.

    shc run samples/x.hlsl --groups 4,1,1 --input src=a.npy --input dst=b.npy \\
        --output dst=b.npy --set scale=2 --set offset=1,2,3 -D N=4
    shc run blur.hlsl --groups 32,32 --input src=photo.png --sampler lin=linear,clamp \\
        --output dst=512x512x4:float32 --save dst=blurred.png --set params.radius=3

``--input NAME=FILE``: a ``.npy`` array, or an image Pillow reads (8-bit as uint8, which a
float texture reads as UNORM). ``--output NAME=FILE`` saves the resource after the run and, when
it was not an ``--input``, starts it as zeros (a buffer: one element per dispatched thread);
``--output NAME=DIMS[:DTYPE]`` creates zeros of that shape; ``--save NAME=FILE`` saves any
resource after the run. A file ending in ``.png`` gets a 2-D texture as an 8-bit image, any
other ``np.save``. ``command_values.py`` reads ``--set``, ``--sampler`` and the shapes.
"""

from __future__ import annotations

import os

import numpy as np

from .command_values import (UsageError, check_png, constant_values, created_array, missing_constants, parse_sampler,
                             save_array, shape_spec)
from .dispatch import MAX_GROUPS_PER_DIMENSION, DispatchError, DispatchTimeout
from .layout import BindingError


MAX_BUFFER_BYTES = 2**31 - 1  # what the JIT's 32-bit byte offsets address


# What ``shc run`` reports as ``shc: error: ...`` (anything else is an internal error).
USER_ERRORS = (UsageError, BindingError, DispatchError, ValueError, NotImplementedError)


def parse_pairs(values, what: str) -> dict[str, str]:
    return dict(pair_list(values, what))


def pair_list(values, what: str) -> list[tuple[str, str]]:
    """``NAME=VALUE`` options in order (one name may come twice: ``--save o=a.npy --save o=a.png``)."""
    pairs = []
    for value in values or []:
        name, sep, text = value.partition("=")
        if not sep or not name.strip() or not text:
            raise UsageError(f"{what} expects NAME=VALUE, not '{value}'")
        pairs.append((name.strip(), text))
    return pairs


def parse_groups(text: str) -> tuple[int, int, int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise UsageError(f"--groups expects X,Y,Z (integers), not '{text}'") from None
    if not 1 <= len(counts) <= 3 or any(c < 0 for c in counts):
        raise UsageError(f"--groups expects X,Y,Z (integers), not '{text}'")
    if any(c > MAX_GROUPS_PER_DIMENSION for c in counts):
        raise UsageError(f"--groups {text}: at most {MAX_GROUPS_PER_DIMENSION} groups per dimension (D3D12's limit)")
    return tuple(counts + [1] * (3 - len(counts)))


def check_output_path(name: str, path: str, option: str = "--output") -> None:
    """Fail before the dispatch, not after it, when an --output or --save cannot be written."""
    target = path if path.endswith((".npy", ".png", ".PNG")) else path + ".npy"  # what np.save writes
    parent = os.path.dirname(os.path.abspath(target))
    if os.path.isdir(target):
        raise UsageError(f"cannot write {option} {name}={path}: it is a directory")
    if not os.path.isdir(parent):
        raise UsageError(f"cannot write {option} {name}={path}: no directory {parent}")
    if not os.access(parent, os.W_OK) or (os.path.exists(target) and not os.access(target, os.W_OK)):
        raise UsageError(f"cannot write {option} {name}={path}: permission denied")


def read_input(name: str, path: str) -> np.ndarray:
    """``--input NAME=FILE``: a .npy array, or an image Pillow reads (``spd_command.load_image``)."""
    if not path.lower().endswith(".npy"):
        from .spd_command import SpdInputError, load_image

        try:
            return load_image(path)
        except SpdInputError as failure:
            raise UsageError(f"cannot read --input {name}={path}: {failure}") from None
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError) as failure:
        raise UsageError(f"cannot read --input {name}={path}: {failure}") from None


def _binding(kernel, name: str, option: str, text: str):
    try:
        return kernel.bindings[name]
    except KeyError:
        names = ", ".join(kernel.bindings.names()) or "nothing"
        raise UsageError(f"{option} {name}={text}: the kernel binds no resource named '{name}' "
                         f"(it binds: {names})") from None


def _zeroed_buffer(name: str, binding, counts, threads_total: int) -> np.ndarray:
    """``--output NAME=FILE`` of a buffer that was not an ``--input``: one zero per thread."""
    from .resources import binding_category

    if binding_category(binding.kind) != "buffer" or binding.count != 1:
        raise UsageError(f"--output {name}: give its initial contents with --input {name}=FILE, or create it "
                         f"with --output {name}=DIMS[:DTYPE]")
    nbytes = threads_total * np.dtype(binding.dtype).itemsize
    if nbytes > MAX_BUFFER_BYTES:
        raise UsageError(f"--output {name}: one element per thread of {counts} groups is {nbytes:,} bytes; "
                         f"a buffer holds at most {MAX_BUFFER_BYTES:,} (2 GiB - 1)")
    return np.zeros(threads_total, dtype=binding.dtype)


def _check_bound(kernel, arrays: dict) -> None:
    """Every resource the kernel binds is given, in the options' words."""
    from .resources import binding_category

    for binding in kernel.bindings:
        category = binding_category(binding.kind)
        name = binding.name
        if category == "cbuffer" or (name in arrays and category == "sampler"):
            continue
        if binding.count != 1:
            raise UsageError(f"'{name}' is a resource array ({binding.kind}[{binding.count or ''}] at "
                             f"{binding.register}): shc run binds single resources; bind arrays from Python "
                             f"(README, 'Python')")
        if name in arrays:
            continue
        if category == "sampler":
            raise UsageError(f"missing sampler '{name}' ({binding.kind} at {binding.register}): give it with "
                             f"--sampler {name}=FILTER,ADDRESS (point or linear; clamp, wrap, mirror or border)")
        how = f"--input {name}=FILE"
        if category == "buffer" and binding.count == 1:
            how += f", or --output {name}=FILE for a zeroed one"
        elif category == "texture" and binding.count == 1:
            how += f", or --output {name}=DIMS[:DTYPE] for a zeroed one"
        raise UsageError(f"missing resource '{name}' ({binding.kind} at {binding.register}): give it with {how}")
    for binding in kernel.bindings:
        given = arrays.get(binding.name)
        wanted = binding.dtype
        if isinstance(given, np.ndarray) and wanted is not None and wanted.names is not None and given.dtype != wanted:
            raise UsageError(f"'{binding.name}' ({binding.kind}<{binding.element}>) holds structs: its file must "
                             f"hold a structured array of dtype {wanted} (HLSL's layout), not {given.dtype}")


def run(file: str, groups: str, inputs, outputs, constants, entry: str, defines: dict, include_dirs: list,
        wave_size: int, timeout: float | None, threads: int | None, samplers=None, saves=None,
        progress=None) -> str:
    """Do what ``shc run`` was asked; return the report to print. ``progress``, if given, has
    ``update(completed=, total=, description=)`` (``compiler/cli/progress.Progress``)."""
    from . import dispatch as runner
    from .kernel import compile_file
    from .resources import bind

    counts = parse_groups(groups)
    input_paths = parse_pairs(inputs, "--input")
    output_specs = parse_pairs(outputs, "--output")
    save_paths = pair_list(saves, "--save")
    sampler_specs = parse_pairs(samplers, "--sampler")
    set_pairs = parse_pairs(constants, "--set")
    writes: list[tuple[str, str]] = []
    for name, text in output_specs.items():
        if shape_spec(text) is None:
            check_output_path(name, text)
            writes.append((name, text))
    for name, path in save_paths:
        check_output_path(name, path, "--save")
        writes.append((name, path))
    kernel = compile_file(file, entry=entry, defines=defines, include_dirs=include_dirs, wave_size=wave_size)
    for name, path in input_paths.items():
        _binding(kernel, name, "--input", path)
    arrays: dict = {name: read_input(name, path) for name, path in input_paths.items()}
    threads_total = counts[0] * counts[1] * counts[2] * int(np.prod(kernel.numthreads))
    for name, text in output_specs.items():
        binding = _binding(kernel, name, "--output", text)
        spec = shape_spec(text)
        if spec is not None:
            if name in arrays:
                raise UsageError(f"--output {name}={text}: '{name}' is also an --input; give one of them")
            arrays[name] = created_array(name, binding, *spec)
        elif name not in arrays:
            arrays[name] = _zeroed_buffer(name, binding, counts, threads_total)
    for name, path in save_paths:
        _binding(kernel, name, "--save", path)
        if name not in arrays:
            raise UsageError(f"--save {name}={path}: '{name}' has no data to save: give it with --input or --output")
    for name, text in sampler_specs.items():
        binding = _binding(kernel, name, "--sampler", text)
        if "Sampler" not in binding.kind:
            raise UsageError(f"--sampler {name}={text}: '{name}' is a {binding.kind}, not a sampler")
        if binding.count is None:
            raise UsageError(f"--sampler {name}={text}: '{name}' is an unbounded sampler array")
        sampler = parse_sampler(name, text)
        arrays[name] = sampler if binding.count == 1 else [sampler] * binding.count
    _check_bound(kernel, arrays)
    for name, path in writes:
        if path.lower().endswith(".png"):
            check_png(name, arrays[name], path, kernel.bindings[name].kind)
    values = dict(arrays)
    values.update(constant_values(kernel.info.cbuffers, set_pairs))
    missing = missing_constants(kernel.info.cbuffers, values)
    if missing:
        name, kind, where = missing[0]
        raise UsageError(f"missing constant '{name}' ({kind}, in {where}): give it with --set {name}=VALUE")
    table = bind(kernel.info, values)
    report = None if progress is None else (
        lambda started, total: progress.update(completed=started, total=total, description="dispatching groups"))
    try:
        stats = runner.run(kernel.info, kernel._loaded(), counts, table, timeout=timeout or None, threads=threads,
                           progress=report)
    except DispatchTimeout:
        raise DispatchTimeout(f"the kernel '{entry}' ran longer than --timeout {timeout:g} s and was stopped "
                              f"(a runaway loop? allow more with --timeout SECONDS, or --timeout 0 for no limit)"
                              ) from None
    table.write_back()
    for name, path in writes:
        save_array(name, arrays[name], path, kernel.bindings[name].kind)
    return stats.format()
