"""Kernels from Python: ``shc.compile``, ``shc.compile_file`` and ``Kernel`` (``shc.Sampler``: ``resources.py``).

    k = shc.compile(source, entry="main", defines={"N": "4"}, include_dirs=None, wave_size=32)
    k.numthreads, k.bindings, k.ir, k.listing
    r = k.dispatch((gx, gy, gz), src=a, dst=b, lin=shc.Sampler("linear"), scale=2.0)
    r.stats

Compiling runs the front end and the middle end (``compiler/pipeline.py``), the
host code generator (``compiler/backend/host.py``) and LLVM (``jit.py``). The
result is cached on disk, keyed by everything that decides it: a warm
``compile`` reads the kernel's description and object code back without
running the compiler or LLVM (``k.ir`` and ``k.listing`` then compile again,
lazily, when asked for). A compile error raises ``KernelCompileError`` whose
text is the formatted diagnostics.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..compiler.diagnostics import CompileError, Coord, Diagnostics, RecordingSources, SourceCache, nesting_guard, read_source
from ..compiler.frontend import hlsl_types as T
from ..compiler.ir.lower import memory_layout as M
from . import jit
from .layout import DEFAULT_TIMEOUT, BindingError, CBufferField, CBufferLayout, numpy_dtype

if TYPE_CHECKING:
    from .dispatch import DispatchResult
    from .tier_up import TierUp

# What only a dispatch needs (binding, the dispatch itself: ``resources.py``, ``dispatch.py``)
# is imported by the first one, so that loading a kernel from the cache does not pay for it.
__all__ = ["BindingError", "BindingInfo", "Kernel", "KernelCompileError", "KernelInfo", "compile", "compile_file"]

SOURCE_NAME = "<source>"


class KernelCompileError(CompileError):
    """A compile error; ``str()`` is the diagnostics as the command line prints them."""

    def __init__(self, diagnostics: list, rendered: str):
        super().__init__(diagnostics)
        self.rendered = rendered
        self.args = (rendered,)

    def __str__(self) -> str:
        return self.rendered


@dataclass(frozen=True)
class BindingInfo:
    """A resource the kernel binds, as ``Kernel.bindings`` lists it."""

    name: str
    kind: str  # "RWStructuredBuffer", "Texture2D", "SamplerState", "cbuffer", ...
    element: Any  # the element type (hlsl_types), None for byte-address buffers, samplers, cbuffers
    register: str  # "u0", "t1", "s0", "b0"
    space: int = 0
    count: int | None = 1  # a resource array's length (None: unbounded)
    globally_coherent: bool = False

    @property
    def element_type(self) -> str | None:
        return None if self.element is None else str(self.element)

    @property
    def dtype(self):
        """The NumPy dtype of one element (buffers), e.g. a structured dtype for a struct."""
        from .resources import binding_category

        if self.element is None or binding_category(self.kind) != "buffer":
            return None
        return numpy_dtype(self.element)

    def __str__(self) -> str:
        element = f"<{self.element}>" if self.element is not None else ""
        count = "" if self.count == 1 else f"[{self.count or ''}]"
        space = f", space{self.space}" if self.space else ""
        return f"{self.kind}{element} {self.name}{count} : register({self.register}{space})"

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "element": type_to_dict(self.element),
                "register": self.register, "space": self.space, "count": self.count,
                "globally_coherent": self.globally_coherent}

    @classmethod
    def from_dict(cls, data: dict) -> BindingInfo:
        return cls(_of(str, data["name"]), _of(str, data["kind"]), type_from_dict(data["element"]), _of(str, data["register"]),
                   _of(int, data["space"]), None if data["count"] is None else _of(int, data["count"]),
                   _of(bool, data["globally_coherent"]))


class Bindings(tuple):
    """The kernel's bindings in register order of declaration; also indexable by name."""

    def __getitem__(self, key):
        if isinstance(key, str):
            for binding in self:
                if binding.name == key:
                    return binding
            raise KeyError(f"the kernel binds no resource named {key!r}")
        return tuple.__getitem__(self, key)

    def names(self) -> list[str]:
        return [binding.name for binding in self]


@dataclass
class KernelInfo:
    """Everything a dispatch needs; what the disk cache keeps next to the object code."""

    entry: str
    source_file: str
    numthreads: tuple[int, int, int]
    wave_size: int
    bindings: list[BindingInfo]
    cbuffers: dict[str, CBufferLayout]
    slots: dict[str, int]  # first resource slot of each binding
    slot_count: int
    frame_bytes: int
    lds_bytes: int
    scratch_bytes_per_wave: int
    wave_entry: str = "shc_wave"
    barriers: dict[int, str] = field(default_factory=dict)  # barrier id -> "file:line:col"
    declared: frozenset[str] = frozenset()  # every global resource and constant name in the source
    orientations: dict = field(default_factory=dict)  # (struct, field) -> row_major (layout.matrix_orientations)

    def barrier_coord(self, barrier_id: int) -> str:
        return self.barriers.get(barrier_id, f"{self.source_file} (barrier {barrier_id})")

    def to_dict(self) -> dict:
        """The description as JSON data: what the disk cache stores (``from_dict`` reads it back)."""
        return {
            "entry": self.entry, "source_file": self.source_file, "numthreads": list(self.numthreads),
            "wave_size": self.wave_size, "bindings": [binding.to_dict() for binding in self.bindings],
            "cbuffers": {name: _cbuffer_to_dict(layout) for name, layout in self.cbuffers.items()},
            "slots": dict(self.slots), "slot_count": self.slot_count, "frame_bytes": self.frame_bytes,
            "lds_bytes": self.lds_bytes, "scratch_bytes_per_wave": self.scratch_bytes_per_wave,
            "wave_entry": self.wave_entry,
            "barriers": [[barrier_id, coord] for barrier_id, coord in sorted(self.barriers.items())],
            "declared": sorted(self.declared),
            "orientations": [[struct, member, row_major]
                             for (struct, member), row_major in sorted(self.orientations.items())],
        }

    @classmethod
    def from_dict(cls, data: dict) -> KernelInfo:
        """The description ``to_dict`` wrote; ValueError when ``data`` is not one (a damaged cache entry)."""
        try:
            numthreads = tuple(_of(int, n) for n in _of(list, data["numthreads"]))
            if len(numthreads) != 3:
                raise ValueError("numthreads is not (x, y, z)")
            return cls(
                entry=_of(str, data["entry"]), source_file=_of(str, data["source_file"]), numthreads=numthreads,
                wave_size=_of(int, data["wave_size"]),
                bindings=[BindingInfo.from_dict(binding) for binding in _of(list, data["bindings"])],
                cbuffers={_of(str, name): _cbuffer_from_dict(layout) for name, layout in _of(dict, data["cbuffers"]).items()},
                slots={_of(str, name): _of(int, slot) for name, slot in _of(dict, data["slots"]).items()},
                slot_count=_of(int, data["slot_count"]), frame_bytes=_of(int, data["frame_bytes"]),
                lds_bytes=_of(int, data["lds_bytes"]), scratch_bytes_per_wave=_of(int, data["scratch_bytes_per_wave"]),
                wave_entry=_of(str, data["wave_entry"]),
                barriers={_of(int, barrier_id): _of(str, coord) for barrier_id, coord in _of(list, data["barriers"])},
                declared=frozenset(_of(str, name) for name in _of(list, data["declared"])),
                orientations={(_of(str, struct), _of(str, member)): _of(bool, row_major)
                              for struct, member, row_major in _of(list, data["orientations"])},
            )
        except (KeyError, TypeError, AttributeError, RecursionError) as failure:
            raise ValueError(f"not a kernel description ({failure!r})") from None


# ---------------------------------------------------------------------------------------
# the kernel description as JSON (the disk cache holds data, never a pickle)
# ---------------------------------------------------------------------------------------


def type_to_dict(t: T.Type | None) -> dict | None:
    """An HLSL type (or a stored matrix, as memory holds it) as JSON data; ``type_from_dict`` reverses it."""
    match t:
        case None:
            return None
        case T.ScalarType():
            return {"t": "scalar", "name": t.name}
        case T.VectorType():
            return {"t": "vector", "element": type_to_dict(t.element), "size": t.size}
        case T.MatrixType():
            return {"t": "matrix", "element": type_to_dict(t.element), "rows": t.rows, "cols": t.cols}
        case M.StoredMatrix():
            return {"t": "stored matrix", "matrix": type_to_dict(t.matrix), "row_major": t.row_major}
        case T.ArrayType():
            return {"t": "array", "element": type_to_dict(t.element), "size": t.size}
        case T.StructType():
            return {"t": "struct", "name": t.name,
                    "fields": [[name, type_to_dict(member)] for name, member in t.fields]}
        case T.ResourceType():
            return {"t": "resource", "kind": t.kind, "element": type_to_dict(t.element),
                    "globally_coherent": t.globally_coherent}
        case T.SamplerType():
            return {"t": "sampler", "kind": t.kind}
    raise TypeError(f"type '{t}' has no JSON form")


_SCALARS_BY_NAME = {scalar.name: scalar for scalar in T.SCALARS.values()}  # "half", not its aliases


def type_from_dict(data: dict | None) -> T.Type | None:
    """The type ``type_to_dict`` wrote; ValueError for anything else."""
    match data:
        case None:
            return None
        case {"t": "scalar", "name": str(name)} if name in _SCALARS_BY_NAME:
            return _SCALARS_BY_NAME[name]
        case {"t": "vector", "element": element, "size": int(size)} if 1 <= size <= 4:
            return T.VectorType(_scalar_from_dict(element), size)
        case {"t": "matrix", "element": element, "rows": int(rows), "cols": int(cols)} \
                if 1 <= rows <= 4 and 1 <= cols <= 4:
            return T.MatrixType(_scalar_from_dict(element), rows, cols)
        case {"t": "stored matrix", "matrix": matrix, "row_major": bool(row_major)}:
            stored = type_from_dict(matrix)
            if isinstance(stored, T.MatrixType):
                return M.StoredMatrix(stored, row_major)
        case {"t": "array", "element": element, "size": size} if size is None or _of(int, size) >= 0:
            return T.ArrayType(_required(type_from_dict(element)), size)
        case {"t": "struct", "name": str(name), "fields": list(fields)}:
            return T.StructType(name, tuple((_of(str, member), _required(type_from_dict(member_type)))
                                            for member, member_type in fields))
        case {"t": "resource", "kind": str(kind), "element": element, "globally_coherent": bool(coherent)} \
                if kind in T.RESOURCE_KINDS:
            return T.ResourceType(kind, type_from_dict(element), coherent)
        case {"t": "sampler", "kind": str(kind)} if kind in T.SAMPLER_KINDS:
            return T.SamplerType(kind)
    raise ValueError(f"not a type: {data!r:.80}")


def _scalar_from_dict(data: dict) -> T.ScalarType:
    scalar = type_from_dict(data)
    if not isinstance(scalar, T.ScalarType):
        raise ValueError(f"not a scalar type: {data!r:.80}")
    return scalar


def _required(t: T.Type | None) -> T.Type:
    if t is None:
        raise ValueError("a type is missing")
    return t


def _cbuffer_to_dict(layout: CBufferLayout) -> dict:
    return {"name": layout.name, "fields": [
        {"name": member.name, "offset": member.offset, "type": type_to_dict(member.type),
         "stored": type_to_dict(member.stored), "required": member.required} for member in layout.fields]}


def _cbuffer_from_dict(data: dict) -> CBufferLayout:
    fields = [CBufferField(_of(str, member["name"]), _of(int, member["offset"]), _required(type_from_dict(member["type"])),
                           _required(type_from_dict(member["stored"])), _of(bool, member["required"]))
              for member in _of(list, data["fields"])]
    return CBufferLayout(_of(str, data["name"]), fields)


_KIND_NAMES = {str: "a string", int: "an integer", bool: "a boolean", list: "a list", dict: "an object"}


def _of(kind: type, value: Any) -> Any:
    """``value`` if JSON gave it as exactly ``kind`` (``True`` is not an integer here), else ValueError."""
    if type(value) is not kind:
        raise ValueError(f"not {_KIND_NAMES[kind]}: {value!r:.80}")
    return value


@dataclass
class _Source:
    """How to compile the kernel again (``ir``, ``listing`` of a kernel from the cache)."""

    text: str
    filename: str
    entry: str
    defines: dict[str, str]
    include_dirs: list[str]
    wave_size: int
    hlsl_version: int = 2021  # -HV: 2018 for shaders written before HLSL 2021 (vector ?: conditions)


class Kernel:
    """A compiled kernel: its description, its IR (lazily), its host code (loaded lazily)."""

    def __init__(self, info: KernelInfo, obj: bytes, module=None, source: _Source | None = None,
                 from_cache: bool = False, tier_up: TierUp | None = None):
        self.info = info
        self.object_code = obj
        self.from_cache = from_cache
        self.tier_up = tier_up  # the child building the O2 object while this runs the first tier's
        self._module = module
        self._source = source
        self._code: jit.LoadedCode | None = None
        self._listing: str | None = None

    # -- what the kernel is ---------------------------------------------------------------

    @property
    def entry(self) -> str:
        return self.info.entry

    @property
    def numthreads(self) -> tuple[int, int, int]:
        return tuple(self.info.numthreads)

    @property
    def wave_size(self) -> int:
        return self.info.wave_size

    @property
    def bindings(self) -> Bindings:
        return Bindings(self.info.bindings)

    @property
    def module(self):
        """The lowered IR module (compiled again if the kernel came from the disk cache)."""
        if self._module is None:
            if self._source is None:
                raise RuntimeError("this kernel was built without its source: no IR to show")
            self._module, _ = _front_and_middle(self._source, Diagnostics())
        return self._module

    @property
    def ir(self) -> str:
        from ..compiler.ir.printer import print_module

        return print_module(self.module)

    @property
    def listing(self) -> str:
        """The RDNA2 listing, when the rdna2 back end provides one."""
        if self._listing is None:
            render = _listing_renderer()
            if render is None:
                raise NotImplementedError("the RDNA2 listing is not available yet (compiler/backend/rdna2 "
                                          "has no render_listing)")
            sources = SourceCache()
            if self._source is not None:
                sources.add(self._source.filename, self._source.text)
            try:
                listing = render(self.module, source=True, sources=sources)
            except TypeError:  # a renderer without the source-line options
                listing = render(self.module)
            self._listing = getattr(listing, "text", listing)
        return self._listing

    def __repr__(self) -> str:
        x, y, z = self.numthreads
        names = ", ".join(self.bindings.names())
        return f"<shc.Kernel {self.entry} [numthreads({x}, {y}, {z})] wave{self.wave_size} ({names})>"

    # -- what it costs (runtime/kernel_views.py) --------------------------------------------

    def report(self, lines: int = 5, llvm: bool = True, llvm_demand: bool = False):
        """The register report of ``shc regs``: a ``KernelReport`` for wave32 and wave64."""
        from .kernel_views import kernel_report

        return kernel_report(self, lines, llvm, llvm_demand)

    def live_registers(self, wave_size: int | None = None) -> list:
        """Per listing instruction: a ``LiveRow`` (line, text, live count, live VGPR numbers)."""
        from .kernel_views import live_rows

        return live_rows(self, wave_size)

    def _repr_html_(self) -> str:
        from .kernel_views import kernel_html

        return kernel_html(self)

    # -- running it -----------------------------------------------------------------------

    def dispatch(self, groups, bindings: dict | None = None, /, *, timeout: float | None = DEFAULT_TIMEOUT,
                 threads: int | None = None, **named) -> DispatchResult:
        """Run ``groups`` = (gx, gy, gz) workgroups; resources and constants by their HLSL names.

        Bindings come as keywords (``o=array, scale=2``) or in the ``bindings`` mapping,
        which also takes the names dispatch's own options use (``{"timeout": 3}`` for a
        cbuffer field called ``timeout``). Outputs land in the caller's arrays.
        ``timeout`` (seconds, None for none) arms the watchdog; ``threads`` host threads
        run groups (default: the cores).
        """
        from . import dispatch as runner
        from .resources import bind

        values = dict(bindings or {})
        twice = sorted(set(values) & set(named))
        if twice:
            raise BindingError(f"{', '.join(map(repr, twice))} given both in the bindings mapping and as a keyword")
        values.update(named)
        table = bind(self.info, values)
        code = self._loaded()
        stats = runner.run(self.info, code, groups, table, timeout=timeout, threads=threads)
        table.write_back()
        return runner.DispatchResult(stats)

    def _loaded(self) -> jit.LoadedCode:
        child = self.tier_up
        if child is not None and child.finished():  # the O2 object from the cache, from now on
            self.tier_up = None
            entry = child.cached(KernelInfo.from_dict)
            if entry is not None:  # a dispatch under way keeps the code it took
                self.object_code, self._code = entry.obj, None
        if self._code is None:
            self._code = jit.LoadedCode(self.object_code, self.info.wave_entry)
        return self._code


# ---------------------------------------------------------------------------------------
# compiling
# ---------------------------------------------------------------------------------------


def compile(source_text: str, entry: str = "main", defines: dict | None = None,
            include_dirs: list | None = None, wave_size: int = 32,
            hlsl_version: int = 2021) -> Kernel:  # noqa: A001 - the API's name
    """Compile HLSL source text into a ``Kernel`` (cached on disk)."""
    return _compile(_Source(source_text, SOURCE_NAME, entry, _defines(defines), _dirs(include_dirs), wave_size,
                            hlsl_version))


def compile_file(path, entry: str = "main", defines: dict | None = None, include_dirs: list | None = None,
                 wave_size: int = 32, hlsl_version: int = 2021) -> Kernel:
    """Compile an HLSL file into a ``Kernel`` (cached on disk)."""
    diagnostics = Diagnostics()
    filename = os.path.normpath(os.fspath(path))
    try:
        text = read_source(filename, diagnostics)
    except CompileError as failure:
        raise KernelCompileError(failure.diagnostics, diagnostics.render()) from None
    return _compile(_Source(text, filename, entry, _defines(defines), _dirs(include_dirs), wave_size, hlsl_version))


def _defines(defines) -> dict[str, str]:
    return {str(name): "1" if value is None else str(value) for name, value in (defines or {}).items()}


def _dirs(include_dirs) -> list[str]:
    return [os.fspath(d) for d in include_dirs or []]


def _compile(source: _Source) -> Kernel:
    if source.wave_size not in (32, 64):
        raise ValueError(f"wave_size must be 32 or 64, not {source.wave_size}")
    if source.hlsl_version not in (2018, 2021):
        raise ValueError(f"hlsl_version must be 2018 or 2021, not {source.hlsl_version}")
    from ..compiler.backend.host.options import opt_level

    cache = jit.KernelCache()
    key = _cache_key(source, opt_level())
    hit = cache.lookup(key, KernelInfo.from_dict)
    if hit is not None:
        return Kernel(hit.info, hit.obj, source=source, from_cache=True)
    from ..compiler.backend.host.jit import code_plan

    sources = RecordingSources()
    diagnostics = Diagnostics(sources=sources)
    try:
        with nesting_guard(diagnostics, Coord(source.filename, 0, 0)):  # every walk, layouts included
            module, program = _front_and_middle(source, diagnostics)
            host = _build_host(module)
            info = _kernel_info(module, program, host, source)
    except CompileError as failure:
        raise KernelCompileError(failure.diagnostics, diagnostics.render()) from None
    from .tier_up import FIRST_TIER, TierUp, worth_tiering

    plan, dependencies = code_plan(host), sources.dependencies(source.filename)
    if worth_tiering(host.llvm_ir, plan):  # O2 in a child, into the cache (tier_up.py)
        child = TierUp.start(cache, key, dependencies, info, host.llvm_ir, plan)
        if child is not None:
            obj = jit.compile_object(host.llvm_ir, info.wave_entry, FIRST_TIER)
            return Kernel(info, obj, module=module, source=source, tier_up=child)
    obj = jit.compile_object(host.llvm_ir, info.wave_entry, plan)
    cache.store(key, jit.CacheEntry(dependencies, obj, info))
    return Kernel(info, obj, module=module, source=source)


def _cache_key(source: _Source, level: int) -> str:
    return jit.digest("shc-kernel", __version__, jit.compiler_fingerprint(), jit.CACHE_FORMAT,
                      jit.host_description(), level,
                      source.text, source.filename, os.path.abspath(source.filename),
                      source.entry, source.defines, [os.path.abspath(d) for d in source.include_dirs],
                      source.wave_size, source.hlsl_version)


def _front_and_middle(source: _Source, diagnostics: Diagnostics):
    """The lowered module and the checked program; a compile error becomes ``KernelCompileError``."""
    from ..compiler.pipeline import Options, check_source, lower_program, middle_end_passes, run_passes

    options = Options(entry=source.entry, defines=dict(source.defines), include_dirs=list(source.include_dirs),
                      wave_size=source.wave_size, hlsl_version=source.hlsl_version)
    try:
        program = check_source(source.text, source.filename, options, diagnostics)
        module = lower_program(program, options, diagnostics)
        run_passes(module, middle_end_passes(module.function.wave_size, diagnostics), options, diagnostics)
    except CompileError as failure:
        raise KernelCompileError(failure.diagnostics, diagnostics.render()) from None
    return module, program


def _build_host(module):
    try:
        from ..compiler.backend.host.module import build_host_module
    except ImportError as failure:
        raise NotImplementedError("the host code generator (compiler/backend/host.py) is not available yet: "
                                  "kernels cannot run") from failure
    return build_host_module(module)


def _kernel_info(module, program, host, source: _Source) -> KernelInfo:
    from ..compiler.ir.ops import Op
    from .layout import cbuffer_layouts, matrix_orientations

    bindings = [BindingInfo(b.name, b.kind, b.element, b.register, b.space, b.count, b.globally_coherent)
                for b in module.bindings]
    loads: dict[str, list[int]] = {}
    for inst in module.function.instructions():
        if inst.op is Op.CBUFFER_LOAD:
            loads.setdefault(inst.attrs.get("buffer"), []).append(int(inst.attrs.get("offset", 0)))
    slots, slot_count = _slot_table(host, module.bindings)
    declared = {decl.name for decl in program.globals if decl.storage in ("resource", "uniform", "cbuffer")}
    declared |= {member.name for cbuffer in program.cbuffers for member in cbuffer.members}
    declared |= {cbuffer.name for cbuffer in program.cbuffers}
    return KernelInfo(
        entry=source.entry, source_file=source.filename,
        numthreads=tuple(module.function.numthreads), wave_size=module.function.wave_size,
        bindings=bindings, cbuffers=cbuffer_layouts(program, module.bindings, loads),
        slots=slots, slot_count=slot_count,
        frame_bytes=int(host.frame_bytes), lds_bytes=int(getattr(host, "lds_bytes", module.lds_bytes)),
        scratch_bytes_per_wave=int(getattr(host, "scratch_bytes_per_wave", 0)),
        wave_entry=getattr(host, "entry", "shc_wave"), barriers=_barrier_coords(host, module),
        declared=frozenset(declared), orientations=matrix_orientations(program),
    )


def _slot_table(host, bindings) -> tuple[dict[str, int], int]:
    """First slot per binding, and how many slots the fixed-size bindings take.

    The code generator's ``slots`` (a list of objects with ``slot`` and ``name``)
    decide; without them every binding takes ``count`` consecutive slots in order.
    An unbounded resource array takes one slot here and as many as the caller's
    list has at dispatch (it is the last binding).
    """
    given = getattr(host, "slots", None)
    slots: dict[str, int] = {}
    if isinstance(given, (list, tuple)) and all(hasattr(item, "slot") and hasattr(item, "name") for item in given):
        for item in given:
            slots[item.name] = min(slots.get(item.name, item.slot), item.slot)
        return slots, len(given)
    next_slot = 0
    for binding in bindings:
        slots[binding.name] = next_slot
        next_slot += binding.count or 1
    return slots, next_slot


def _barrier_coords(host, module) -> dict[int, str]:
    """Barrier id -> source position: the code generator's table, else group-syncing barriers
    numbered from 1 in instruction order (as ``host_analysis`` numbers them)."""
    given = getattr(host, "barriers", None)
    if isinstance(given, dict):
        return {int(k): str(v) for k, v in given.items()}
    from ..compiler.ir.ops import Op

    barriers = [inst for inst in module.function.instructions()
                if inst.op is Op.BARRIER and inst.attrs.get("sync", True)]
    return {index: str(inst.coord) for index, inst in enumerate(barriers, start=1)}


def _listing_renderer():
    """``compiler/backend/rdna2/listing.py``'s ``render_listing``, when the back end has it."""
    try:
        from ..compiler.backend.rdna2 import listing
    except ImportError:
        return None
    return getattr(listing, "render_listing", None)
