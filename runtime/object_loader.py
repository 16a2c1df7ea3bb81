"""Object code from the kernel cache placed in memory without LLVM: a small ELF loader.

    image = load_object(obj, ("shc_run_groups", "shc_wave"))   # None: not one it takes
    run_groups_address, wave_address = image.addresses

Loading llvmlite's library costs a new process about 36 MiB and 30 ms before it does
anything (the static constructors of all of LLVM run when it is opened), and MCJIT's
own loader is all a kernel from the cache needs of it. The objects ``jit.compile_object``
emits are simple: the host's code generator with the large code model (``jitdefault``
on x86-64) reaches every symbol through a 64-bit absolute address, so loading one is
what a static linker does for a single file, at an address chosen now:

1. lay out the allocated sections, executable ones first, then read-only, then
   writable data, each group on its own pages, in one anonymous mapping;
2. copy the sections' bytes (``SHT_NOBITS`` ones stay zero);
3. apply the relocations: ``R_X86_64_64`` writes S + A, ``R_X86_64_PC64`` S + A - P,
   where S is a section's address plus the symbol's value, or for an undefined symbol
   its address in this process (the C library, libm and libgcc's helpers: ``memset``,
   ``fmodf``, ``__truncdfhf2``), as MCJIT resolves them;
4. make the code pages read and execute and the constants read-only.

Unwind tables (``.eh_frame``) are not loaded: nothing unwinds through kernel code (it
calls no code that throws), and MCJIT's registration of them only served debuggers.

Anything else (another machine or file type, a relocation kind or section this does not
know, thread-local data, static constructors, a symbol that cannot be resolved) is
refused with None, and the caller loads the object with MCJIT as before. The bytes are
the cache's, already checked against the sha256 its metadata records
(``jit.KernelCache``); every offset and index read from them is still checked against
the object's size, so a damaged object is refused, never followed.
"""

from __future__ import annotations

import ctypes
import mmap
import struct
import sys
import weakref
from typing import NamedTuple

# ELF constants (the System V ABI and its x86-64 supplement).
_HEADER = struct.Struct("<16sHHIQQQIHHHHHH")
_SECTION = struct.Struct("<IIQQQQIIQQ")
_SYMBOL = struct.Struct("<IBBHQQ")
_RELA = struct.Struct("<QQq")
_WORD = struct.Struct("<Q")
_IDENT = b"\x7fELF\x02\x01\x01"  # 64-bit, little endian, version 1
ET_REL, EM_X86_64 = 1, 62
SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_RELA, SHT_NOBITS, SHT_REL = 1, 2, 3, 4, 8, 9
SHT_CONSTRUCTORS = {14, 15, 16}  # init, fini and preinit arrays: code MCJIT would not run either
SHT_X86_64_UNWIND = 0x70000001
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR, SHF_TLS = 0x1, 0x2, 0x4, 0x400
SHN_UNDEF, SHN_LORESERVE, SHN_ABS = 0, 0xFF00, 0xFFF1
STB_LOCAL = 0
R_X86_64_NONE, R_X86_64_64, R_X86_64_PC64 = 0, 1, 24
_MASK = 2 ** 64 - 1

# The libraries an undefined symbol is looked up in: the process (the C library and what
# Python has loaded globally), then libm and libgcc by name (already loaded in practice).
_LIBRARIES = (None, "libm.so.6", "libgcc_s.so.1")


class Refused(Exception):
    """The object is not one this loader takes (the caller uses MCJIT)."""


class LoadedImage:
    """An object placed in memory; the mapping lives as long as this object."""

    def __init__(self, base: int, size: int, addresses: tuple[int, ...]):
        self.base, self.size = base, size
        self.addresses = addresses  # of the symbols asked for, in order
        # freed with this object, not at exit (a daemon thread may still be running the code then)
        weakref.finalize(self, _Mapping.free, base, size).atexit = False


def load_object(obj: bytes, symbols: tuple[str, ...]) -> LoadedImage | None:
    """``obj`` (an ELF relocatable object for x86-64) loaded and relocated, with the addresses of
    ``symbols`` (global functions it defines); None when it is not one this loader takes."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        return _ObjectFile(obj).load(symbols)
    except (Refused, struct.error, IndexError, ValueError):  # ValueError: a name without its end
        return None


class _Section(NamedTuple):
    name: str
    type: int
    flags: int
    offset: int
    size: int
    link: int
    info: int
    align: int


class _ObjectFile:
    """The sections, symbols and relocations of one object, read and checked."""

    def __init__(self, data: bytes):
        self.data = data
        if len(data) < _HEADER.size or not data.startswith(_IDENT):
            raise Refused("not a 64-bit little-endian ELF file")
        header = _HEADER.unpack_from(data)
        kind, machine, section_offset = header[1], header[2], header[6]
        entry_size, count, names_index = header[11], header[12], header[13]
        if kind != ET_REL or machine != EM_X86_64 or entry_size != _SECTION.size:
            raise Refused("not an x86-64 relocatable object")
        self._within(section_offset, count * _SECTION.size)
        raw = [_SECTION.unpack_from(data, section_offset + index * _SECTION.size) for index in range(count)]
        names = raw[names_index]
        self.sections = [_Section(self._string(names[4], names[5], entry[0]), entry[1], entry[2], entry[4],
                                  entry[5], entry[6], entry[7], max(entry[8], 1)) for entry in raw]
        for section in self.sections:
            if section.type != SHT_NOBITS:
                self._within(section.offset, section.size)

    def _within(self, offset: int, size: int) -> None:
        if offset < 0 or size < 0 or offset + size > len(self.data):
            raise Refused("an offset past the end of the object")

    def _string(self, table_offset: int, table_size: int, index: int) -> str:
        if index >= table_size:
            raise Refused("a name past its string table")
        start = table_offset + index
        end = self.data.index(b"\0", start, table_offset + table_size)
        return self.data[start:end].decode("ascii")

    def _loaded(self, section: _Section) -> bool:
        if not section.flags & SHF_ALLOC:
            return False
        if section.type == SHT_X86_64_UNWIND or section.name == ".eh_frame":
            return False
        if section.flags & SHF_TLS or section.type in SHT_CONSTRUCTORS:
            raise Refused(f"section {section.name} (thread-local data or constructors)")
        if section.type not in (SHT_PROGBITS, SHT_NOBITS):
            raise Refused(f"section {section.name} of type {section.type:#x}")
        if section.flags & SHF_WRITE and section.flags & SHF_EXECINSTR:
            raise Refused(f"section {section.name} is writable code")
        return True

    def _layout(self) -> tuple[dict[int, int], int]:
        """Each loaded section's offset in the image, and the image's size: code, then
        constants, then writable data, each group starting on a page."""
        offsets: dict[int, int] = {}
        size = 0
        loaded = [index for index, section in enumerate(self.sections) if self._loaded(section)]
        for group in (SHF_EXECINSTR, 0, SHF_WRITE):
            size = _round_up(size, mmap.PAGESIZE)
            for index in loaded:
                section = self.sections[index]
                if section.flags & (SHF_EXECINSTR | SHF_WRITE) == group:
                    size = _round_up(size, section.align)
                    offsets[index] = size
                    size += section.size
        return offsets, _round_up(max(size, 1), mmap.PAGESIZE)

    def _symbols(self) -> tuple[_Section, list[tuple]]:
        tables = [section for section in self.sections if section.type == SHT_SYMTAB]
        if len(tables) != 1:
            raise Refused("not one symbol table")
        (table,) = tables
        strings = self.sections[table.link]
        entries = [_SYMBOL.unpack_from(self.data, table.offset + index * _SYMBOL.size)
                   for index in range(table.size // _SYMBOL.size)]
        return strings, entries

    def load(self, wanted: tuple[str, ...]) -> LoadedImage:
        offsets, size = self._layout()
        strings, symbols = self._symbols()
        base = _Mapping.allocate(size)
        try:
            image = bytearray(size)
            for index, offset in offsets.items():
                section = self.sections[index]
                if section.type == SHT_PROGBITS:
                    image[offset:offset + section.size] = self.data[section.offset:section.offset + section.size]

            def address_of(symbol_index: int) -> int:
                name_index, _, _, section_index, value, _ = symbols[symbol_index]
                if section_index == SHN_UNDEF:
                    return _external(self._string(strings.offset, strings.size, name_index))
                if section_index == SHN_ABS:
                    return value
                if section_index >= SHN_LORESERVE or section_index not in offsets:
                    raise Refused("a symbol in a section that is not loaded")
                return base + offsets[section_index] + value

            for section in self.sections:
                if section.type == SHT_REL and section.info in offsets:
                    raise Refused("REL relocations")
                if section.type == SHT_RELA and section.info in offsets:
                    self._relocate(image, base, offsets[section.info], self.sections[section.info], section,
                                   address_of)
            addresses = tuple(self._defined(name, symbols, strings, address_of) for name in wanted)
            _Mapping.write(base, image)
            for group, protection in ((SHF_EXECINSTR, mmap.PROT_READ | mmap.PROT_EXEC), (0, mmap.PROT_READ)):
                spans = [(offsets[index], offsets[index] + self.sections[index].size) for index in offsets
                         if self.sections[index].flags & (SHF_EXECINSTR | SHF_WRITE) == group]
                if spans:
                    start = min(begin for begin, _ in spans)
                    _Mapping.protect(base + start, _round_up(max(end for _, end in spans), mmap.PAGESIZE) - start,
                                     protection)
        except BaseException:
            _Mapping.free(base, size)
            raise
        return LoadedImage(base, size, addresses)

    def _relocate(self, image: bytearray, base: int, offset: int, target: _Section, relocations: _Section,
                  address_of) -> None:
        for index in range(relocations.size // _RELA.size):
            where, info, addend = _RELA.unpack_from(self.data, relocations.offset + index * _RELA.size)
            kind, symbol = info & 0xFFFFFFFF, info >> 32
            if kind == R_X86_64_NONE:
                continue
            if where + _WORD.size > target.size:
                raise Refused("a relocation past its section")
            if kind == R_X86_64_64:
                value = address_of(symbol) + addend
            elif kind == R_X86_64_PC64:
                value = address_of(symbol) + addend - (base + offset + where)
            else:
                raise Refused(f"relocation type {kind}")
            _WORD.pack_into(image, offset + where, value & _MASK)

    def _defined(self, name: str, symbols: list[tuple], strings: _Section, address_of) -> int:
        for index, (name_index, binding_and_type, _, section_index, _, _) in enumerate(symbols):
            if binding_and_type >> 4 != STB_LOCAL and section_index != SHN_UNDEF \
                    and self._string(strings.offset, strings.size, name_index) == name:
                return address_of(index)
        raise Refused(f"the object defines no '{name}'")


def _round_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def _external(name: str) -> int:
    """The address of a function this process has (the C library, libm, libgcc)."""
    for library in _libraries():
        try:
            return ctypes.cast(getattr(library, name), ctypes.c_void_p).value
        except AttributeError:
            continue
    raise Refused(f"the symbol '{name}' is not in this process")


_OPENED: list = []


def _libraries() -> list:
    if not _OPENED:
        for name in _LIBRARIES:
            try:
                _OPENED.append(ctypes.CDLL(name))
            except OSError:
                continue
    return _OPENED


class _Mapping:
    """Anonymous memory from the C library's ``mmap``, its protection changed with ``mprotect``."""

    _libc = None

    @classmethod
    def _c(cls):
        if cls._libc is None:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.mmap.restype = ctypes.c_void_p
            libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                  ctypes.c_long]
            libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
            libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
            cls._libc = libc
        return cls._libc

    @classmethod
    def allocate(cls, size: int) -> int:
        address = cls._c().mmap(None, size, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                                -1, 0)
        if address is None or address == _MASK:  # MAP_FAILED
            raise Refused("no memory for the code")
        return address

    @classmethod
    def write(cls, address: int, data: bytearray) -> None:
        ctypes.memmove(address, (ctypes.c_char * len(data)).from_buffer(data), len(data))

    @classmethod
    def protect(cls, address: int, size: int, protection: int) -> None:
        if cls._c().mprotect(address, size, protection) != 0:
            raise Refused("mprotect failed")

    @classmethod
    def free(cls, address: int, size: int) -> None:
        cls._c().munmap(address, size)
