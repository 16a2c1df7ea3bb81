"""The conformance corpus: every ``tests/conformance/**/*.hlsl`` case, at each wave size it lists.

A case is one small kernel with its inputs and the outputs the HLSL / D3D specification
gives (``README.md`` in this folder has the format). Each runs through ``shc.compile_file``
and the host JIT, and every expected buffer is compared bit for bit (a float ``nan`` matches
any NaN); then the same dispatch runs on the case's RDNA2 listing (``listing_check.py``), which
must leave every bound buffer as the JIT did. An ``error:`` case runs ``shc check`` and expects exit 1 with a positioned error
containing its substring. A case shc still gets wrong says why in a ``known_failure:`` line
and runs as a strict xfail: it fails the run once shc gets it right, so the line is removed.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import shc
from shc.compiler.frontend import hlsl_types as T
from shc.runtime.layout import element_shape, from_memory, memory_type, to_memory, transposes
from shc.runtime.resources import binding_category

sys.path.insert(0, os.path.dirname(__file__))
from case_format import Case, CaseFormatError, header_lines, known_failure, read_case, wave_sizes  # noqa: E402
from listing_check import LISTING_BUGS, NOT_ON_THE_LISTING, listing_problem  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import cli_runner  # noqa: E402

HERE = Path(__file__).resolve().parent


def _params():
    for path in sorted(HERE.rglob("*.hlsl")):
        name = path.relative_to(HERE).as_posix()
        if _is_error_case(path):
            yield pytest.param(path, 0, id=f"{name}-check")
            continue
        reason = known_failure(path)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        for wave in wave_sizes(path):
            yield pytest.param(path, wave, id=f"{name}-wave{wave}", marks=marks)


def _is_error_case(path: Path) -> bool:
    """Whether the header has an ``error:`` line (read leniently: ``read_case`` reports malformed files)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return any(re.match(r"//\s*error:", line) for _, line in header_lines(text))


pytestmark = pytest.mark.usefixtures("private_kernel_cache")


@pytest.mark.parametrize(("path", "wave"), list(_params()))
def test_case(path: Path, wave: int):
    case, problem = _read(path)
    if problem:
        pytest.fail(f"malformed case: {problem}", pytrace=False)
    if case.error is not None:
        return _check_rejected(case)
    kernel, problem = _compile(case, wave)
    if problem:
        pytest.fail(f"{path}: shc rejects the case at wave{wave}:\n{problem}", pytrace=False)
    outputs = {}
    bindings = _bindings(case, kernel, outputs)
    problem = _dispatch(case, kernel, bindings)
    if problem:
        pytest.fail(f"{path}: the dispatch failed at wave{wave}: {problem}", pytrace=False)
    problems = [_compare(case, name, outputs[name](), wave) for name in case.expects]
    problems = [problem for problem in problems if problem]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
    _check_listing(case, kernel, bindings, outputs, wave)


def _check_listing(case: Case, kernel, bindings: dict, outputs: dict, wave: int) -> None:
    """The same dispatch on the RDNA2 listing (``listing_check.py``) leaves the same bytes."""
    problem = listing_problem(case, kernel, bindings, outputs, wave)
    where = Path(case.path).resolve()
    name = where.relative_to(HERE).as_posix() if where.is_relative_to(HERE) else None  # a case written by a test
    known = NOT_ON_THE_LISTING.get(name) or LISTING_BUGS.get(name)
    if known:
        if problem is None:
            pytest.fail(f"{case.path}: the listing runs and agrees now: remove its entry in listing_check.py "
                        f"({known})", pytrace=False)
        return
    if problem:
        pytest.fail(f"{case.path}: {problem}", pytrace=False)


def _read(path: Path):
    try:
        return read_case(path), None
    except CaseFormatError as failure:
        return None, str(failure)


def _compile(case: Case, wave: int):
    try:
        return shc.compile_file(case.path, defines=case.defines, wave_size=wave), None
    except shc.KernelCompileError as failure:
        return None, str(failure)


def _dispatch(case: Case, kernel, bindings: dict) -> str | None:
    try:
        kernel.dispatch(case.groups, bindings, timeout=30)
    except (shc.BindingError, shc.DispatchError) as failure:
        return str(failure)
    return None


# -- binding ------------------------------------------------------------------------------


def _bindings(case: Case, kernel, outputs: dict) -> dict:
    """The dispatch's mapping: buffers viewed as the kernel's elements, constants, textures, samplers.

    ``outputs`` gets, per buffer, a function giving its bytes in memory order after the run.
    """
    bound = {}
    for name, buffer in case.buffers.items():
        if name in kernel.bindings.names():
            array, memory_bytes = _as_elements(case, kernel.bindings[name], buffer, kernel.info.orientations)
            bound[name] = array
            outputs[name] = memory_bytes
        elif name in kernel.info.declared:  # declared but never used: not bound, stays as given
            outputs[name] = buffer.values.tobytes
        else:
            pytest.fail(f"{case.where(buffer.line)}: the kernel declares no resource named '{name}' "
                        f"(it binds: {', '.join(kernel.bindings.names())})", pytrace=False)
    for name, constant in case.constants.items():
        value = _constant_value(case, kernel, constant)
        if value is not None:
            bound[name] = value
    for name, texture in case.textures.items():
        bound[name] = texture.texels.copy()
    for name, (filter_mode, address) in case.samplers.items():
        bound[name] = shc.Sampler(filter=filter_mode, address=address)
    return bound


def _as_elements(case: Case, binding, buffer, orientations: dict):
    """The case's flat values -- the buffer's bytes as D3D memory holds them -- as the array the
    runtime binds (vectors as a trailing axis, structs as structured dtypes, matrices in their
    logical (rows, cols) order), and a function giving that array's bytes in memory order again."""
    raw = buffer.values.tobytes()
    if binding_category(binding.kind) == "byte_address":
        array = np.frombuffer(raw, np.uint8 if buffer.dtype == np.uint8 else np.uint32).copy()
        return array, array.tobytes
    stored = memory_type(binding.element, orientations)  # column_major matrices hold columns
    base, shape = element_shape(stored)
    size = base.itemsize * int(np.prod(shape, dtype=np.int64))
    if len(raw) % size:
        pytest.fail(f"{case.where(buffer.line)}: buffer '{buffer.name}' holds {len(raw)} bytes, not a whole "
                    f"number of {binding.kind} elements of {size} bytes", pytrace=False)
    memory = np.frombuffer(raw, base).reshape((-1,) + tuple(shape)).copy()
    if not transposes(stored):
        return memory, memory.tobytes
    logical_base, logical_shape = element_shape(binding.element)
    array = np.zeros((len(memory),) + tuple(logical_shape), logical_base)
    from_memory(array, memory, stored)
    return array, lambda: to_memory(array, stored).tobytes()


def _constant_value(case: Case, kernel, constant):
    """A cbuffer member or global uniform from its flat values: a scalar, a vector, a matrix (row by
    row), an array (element by element) or a struct (field by field), as its declaration says."""
    for layout in kernel.info.cbuffers.values():
        for member in layout.fields:
            if member.name == constant.name:
                value, used = _unflatten(member.type, constant.values)
                if used != len(constant.values):
                    pytest.fail(f"{case.where(constant.line)}: constant '{constant.name}' is {member.type}: "
                                f"{_count(member.type)} values, got {len(constant.values)}", pytrace=False)
                return value
    if constant.name in kernel.info.declared:
        return None  # declared but never read: nothing is bound for it
    pytest.fail(f"{case.where(constant.line)}: the kernel has no constant named '{constant.name}'", pytrace=False)


def _count(t) -> int:
    if isinstance(t, T.StructType):
        return sum(_count(field_type) for _, field_type in t.fields)
    if isinstance(t, T.ArrayType):
        return (t.size or 0) * _count(t.element)
    return int(np.prod(_shape(t), dtype=np.int64))


def _unflatten(t, values: np.ndarray):
    """``t``'s value built from the front of ``values``, and how many values it took."""
    if isinstance(t, T.StructType):
        members, used = {}, 0
        for name, field_type in t.fields:
            members[name], taken = _unflatten(field_type, values[used:])
            used += taken
        return members, used
    if isinstance(t, T.ArrayType):
        items, used = [], 0
        for _ in range(t.size or 0):
            item, taken = _unflatten(t.element, values[used:])
            items.append(item)
            used += taken
        return items, used
    shape = _shape(t)
    size = int(np.prod(shape, dtype=np.int64))
    if len(values) < size:
        return None, len(values) + 1  # too few: reported by the caller
    return (values[:size].reshape(shape) if shape else values[0]), size


def _shape(t) -> tuple[int, ...]:
    if isinstance(t, T.VectorType):
        return (t.size,)
    if isinstance(t, T.MatrixType):
        return (t.rows, t.cols)
    return ()


# -- checking -----------------------------------------------------------------------------


def _compare(case: Case, name: str, result: bytes, wave: int) -> str | None:
    expected, line = case.expects[name]
    got = np.frombuffer(result, expected.dtype)
    if expected.dtype.kind == "f":
        bits = np.dtype(f"u{expected.dtype.itemsize}")
        same = (got.view(bits) == expected.view(bits)) | (np.isnan(got) & np.isnan(expected))
    else:
        same = got == expected
    if same.all():
        return None
    wrong = np.flatnonzero(~same)
    shown = ", ".join(f"[{i}] {_show(got[i])} (expected {_show(expected[i])})" for i in wrong[:8])
    more = f" and {len(wrong) - 8} more" if len(wrong) > 8 else ""
    return f"{case.where(line)}: wave{wave}: '{name}' differs at {len(wrong)} of {len(expected)}: {shown}{more}"


def _show(value) -> str:
    if isinstance(value, np.floating):
        bits = value.view(np.dtype(f"u{value.itemsize}"))
        return f"{value.item()!r} (0x{int(bits):0{value.itemsize * 2}x})"
    return str(value.item())


def _check_rejected(case: Case) -> None:
    done = cli_runner.shc("check", case.path, *[f"-D{name}={value}" for name, value in case.defines.items()])
    where = case.where(case.error_line)
    if done.returncode != 1:
        pytest.fail(f"{where}: 'shc check' exited {done.returncode}, expected 1\n{done.stderr}", pytrace=False)
    positioned = re.compile(rf"^{re.escape(str(case.path))}:\d+:\d+: error: (.*)$")
    messages = [m.group(1) for m in map(positioned.match, done.stderr.splitlines()) if m]
    if not any(case.error in message for message in messages):
        pytest.fail(f"{where}: no positioned error containing {case.error!r}:\n{done.stderr}", pytrace=False)
