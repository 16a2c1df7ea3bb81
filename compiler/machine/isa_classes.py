"""RDNA2 instruction classes by mnemonic: one classifier for shc's listing and LLVM's ISA.

The classes are the hardware's issue paths, as a shader engineer counts them:

- ``SALU``: scalar ALU (``s_add_u32``, ``s_and_saveexec_b32``, ``s_cselect_b32``);
- ``VALU``: vector ALU, DPP and DPP8 forms included (``v_fma_f32``, ``v_cmpx_*``,
  ``v_readlane_b32``);
- ``VMEM``: vector memory through the texture unit (``buffer_*``, ``image_*``,
  ``global_*``, ``scratch_*``, ``flat_*``);
- ``SMEM``: scalar memory (``s_load_*``, ``s_buffer_load_*``);
- ``LDS``: the data share (``ds_*``, LDS permutes included);
- ``branch``: ``s_branch`` and every ``s_cbranch_*``;
- ``waitcnt``: ``s_waitcnt`` and its ``_vscnt``/``_vmcnt``/``_lgkmcnt``/``_expcnt`` forms;
- ``other``: exports, ``s_endpgm``, ``s_barrier``, ``s_nop``, clause and cache-control
  instructions (``s_clause``, ``buffer_gl0_inv``), messages and prefetch hints.

``count_isa_text`` counts the instructions of an assembly text (LLVM's verbose output:
labels, directives, comments and the kernel descriptor are skipped), so shc's listing
and LLVM's are counted by the same rule.
"""

from __future__ import annotations

CLASSES = ("SALU", "VALU", "VMEM", "SMEM", "LDS", "branch", "waitcnt", "other")

_OTHER = ("s_endpgm", "s_barrier", "s_nop", "s_clause", "s_sendmsg", "s_sleep", "s_setprio", "s_code_end",
          "s_trap", "s_icache_inv", "s_inst_prefetch", "s_ttracedata", "s_dcache_inv", "s_gl1_inv",
          "buffer_gl0_inv", "buffer_gl1_inv", "exp", "s_waitcnt_depctr")
_SMEM = ("s_load_", "s_buffer_load_", "s_store_", "s_buffer_store_", "s_atomic_", "s_buffer_atomic_",
         "s_memtime", "s_memrealtime", "s_scratch_")
_VMEM = ("buffer_", "image_", "global_", "scratch_", "flat_", "tbuffer_")


def isa_class(mnemonic: str) -> str:
    """The class of one instruction, from its mnemonic alone."""
    name = mnemonic.strip().lower()
    if name.startswith(_OTHER):
        return "other"
    if name.startswith("s_waitcnt"):
        return "waitcnt"
    if name.startswith(("s_branch", "s_cbranch")):
        return "branch"
    if name.startswith(_SMEM):
        return "SMEM"
    if name.startswith("ds_"):
        return "LDS"
    if name.startswith(_VMEM):
        return "VMEM"
    if name.startswith("v_"):
        return "VALU"
    if name.startswith("s_"):
        return "SALU"
    return "other"


def empty_counts() -> dict[str, int]:
    return {name: 0 for name in CLASSES}


def count_mnemonics(mnemonics) -> dict[str, int]:
    """Instructions per class (every class present, zeros included)."""
    counts = empty_counts()
    for mnemonic in mnemonics:
        counts[isa_class(mnemonic)] += 1
    return counts


def isa_mnemonics(text: str) -> list[str]:
    """The mnemonics of an assembly text's instructions, in order.

    An instruction line is indented and starts with a mnemonic; labels (``name:``),
    directives (``.text``), comments (``;``, ``//``) and the lines after the function's
    end (``.Lfunc_end0:``, the kernel descriptor and metadata) are not instructions.
    """
    mnemonics = []
    for line in text.splitlines():
        code = line.split(";", 1)[0].split("//", 1)[0]
        stripped = code.strip()
        if stripped.startswith(".Lfunc_end"):
            break
        if not stripped or not code[:1].isspace() or stripped.startswith(".") or stripped.endswith(":"):
            continue
        word = stripped.split()[0]
        if word[0].isalpha():
            mnemonics.append(word)
    return mnemonics


def count_isa_text(text: str) -> dict[str, int]:
    return count_mnemonics(isa_mnemonics(text))
