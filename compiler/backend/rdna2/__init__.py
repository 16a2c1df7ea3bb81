"""The RDNA2 back end: instruction selection, register allocation, the ISA listing.

Produces the listing that ``shc compile --target rdna2`` prints (``listing.py``:
the resource header, the allocated instructions, ``s_waitcnt``) and the register
figures of ``shc regs``. ``simulate.py`` runs an allocated listing in NumPy, the
oracle that shows what the printed instructions compute; the tests compare it with
the IR interpreter.
"""
