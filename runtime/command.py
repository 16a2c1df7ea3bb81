"""``shc run``: compile a file, bind .npy files and constants, dispatch, save outputs, report.

    shc run samples/x.hlsl --groups 4,1,1 --input src=a.npy --input dst=b.npy \\
        --output dst=b.npy --set scale=2 --set offset=1,2,3 -D N=4

An ``--output`` that was not also an ``--input`` is allocated as zeros: a buffer
gets one element per dispatched thread; other resources need an ``--input``.
"""

from __future__ import annotations

import os

import numpy as np

from .dispatch import MAX_GROUPS_PER_DIMENSION, DispatchError
from .layout import BindingError


MAX_BUFFER_BYTES = 2**31 - 1  # what the JIT's 32-bit byte offsets address


class UsageError(ValueError):
    """A command-line argument that cannot be used (reported as ``shc: error: ...``)."""


# What ``shc run`` reports as ``shc: error: ...`` (anything else is an internal error).
USER_ERRORS = (UsageError, BindingError, DispatchError, ValueError, NotImplementedError)


def parse_pairs(values, what: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for value in values or []:
        name, sep, text = value.partition("=")
        if not sep or not name.strip() or not text:
            raise UsageError(f"{what} expects NAME=VALUE, not '{value}'")
        pairs[name.strip()] = text
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


def check_output_path(name: str, path: str) -> None:
    """Fail before the dispatch, not after it, when an --output cannot be written."""
    target = path if path.endswith(".npy") else path + ".npy"  # what np.save writes
    parent = os.path.dirname(os.path.abspath(target))
    if os.path.isdir(target):
        raise UsageError(f"cannot write --output {name}={path}: it is a directory")
    if not os.path.isdir(parent):
        raise UsageError(f"cannot write --output {name}={path}: no directory {parent}")
    if not os.access(parent, os.W_OK) or (os.path.exists(target) and not os.access(target, os.W_OK)):
        raise UsageError(f"cannot write --output {name}={path}: permission denied")


def parse_constant(text: str):
    """``2``, ``1.5``, or ``1,2,3`` (a vector)."""
    parts = [part.strip() for part in text.split(",")]
    try:
        numbers = [int(part) if part.lstrip("+-").isdigit() else float(part) for part in parts]
    except ValueError:
        raise UsageError(f"--set expects numbers (a vector as 1,2,3), not '{text}'") from None
    return numbers[0] if len(numbers) == 1 else numbers


def run(file: str, groups: str, inputs, outputs, constants, entry: str, defines: dict, include_dirs: list,
        wave_size: int, timeout: float | None, threads: int | None) -> str:
    """Do what ``shc run`` was asked; return the report to print."""
    from .kernel import compile_file
    from .resources import binding_category

    counts = parse_groups(groups)
    kernel = compile_file(file, entry=entry, defines=defines, include_dirs=include_dirs, wave_size=wave_size)
    arrays: dict[str, np.ndarray] = {}
    for name, path in parse_pairs(inputs, "--input").items():
        try:
            arrays[name] = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as failure:
            raise UsageError(f"cannot read --input {name}={path}: {failure}") from None
    saves = parse_pairs(outputs, "--output")
    for name, path in saves.items():
        check_output_path(name, path)
    threads_total = counts[0] * counts[1] * counts[2] * int(np.prod(kernel.numthreads))
    for name in saves:
        if name in arrays:
            continue
        try:
            binding = kernel.bindings[name]
        except KeyError:
            raise UsageError(f"--output {name}: the kernel binds no resource named '{name}'") from None
        if binding_category(binding.kind) != "buffer" or binding.count != 1:
            raise UsageError(f"--output {name}: give its initial contents with --input {name}=FILE.npy")
        nbytes = threads_total * np.dtype(binding.dtype).itemsize
        if nbytes > MAX_BUFFER_BYTES:
            raise UsageError(f"--output {name}: one element per thread of {counts} groups is {nbytes:,} bytes; "
                             f"a buffer holds at most {MAX_BUFFER_BYTES:,} (2 GiB - 1)")
        arrays[name] = np.zeros(threads_total, dtype=binding.dtype)
    for binding in kernel.bindings:
        category = binding_category(binding.kind)
        if binding.name not in arrays and category in ("buffer", "byte_address", "texture"):
            name = binding.name
            zeroed = ""
            if category == "buffer" and binding.count == 1:
                zeroed = f", or --output {name}=FILE.npy for a zeroed one"
            raise UsageError(f"missing resource '{name}' ({binding.kind} at {binding.register}): "
                             f"give it with --input {name}=FILE.npy{zeroed}")
    values = dict(arrays)
    values.update({name: parse_constant(text) for name, text in parse_pairs(constants, "--set").items()})
    result = kernel.dispatch(counts, timeout=timeout, threads=threads, **values)
    for name, path in saves.items():
        np.save(path, arrays[name], allow_pickle=False)
    return result.stats.format()
