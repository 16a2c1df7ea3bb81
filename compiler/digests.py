"""sha256 for the caches' keys and checks, without loading OpenSSL.

``hashlib`` loads OpenSSL's libcrypto when it is imported, 3-4 ms of a new process: a
tenth of loading a kernel from the cache, which hashes little (a key, a few source files,
one object). CPython's own sha256 is built into the interpreter and computes the same
digests; ``hashlib``'s is used only on a Python built without it. The bottom layer: the
diagnostics (a source file's hash), the cache files and the runtime's cache import it.
"""

try:
    from _sha2 import sha256  # CPython 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256  # CPython 3.10 and 3.11
    except ImportError:
        from hashlib import sha256

__all__ = ["sha256"]
