"""The lowered IR as LLVM IR for ``amdgcn-amd-amdhsa`` (gfx1030): the cross-check's input.

    text = to_llvm_ir(module)        # an amdgpu_kernel; check.cross_check compiles it

The kernel is the same program shc's own back end allocates registers for, written
the way a driver's compiler would see it, so LLVM's register figures are comparable:

* **Thread inputs**: ``llvm.amdgcn.workitem.id.*`` (VGPRs v0..v2) and
  ``workgroup.id.*`` (SGPRs); ``SV_DispatchThreadID`` = group id x ``numthreads`` +
  thread id; ``SV_GroupIndex`` flattens the thread id. ``!reqd_work_group_size``
  and ``"amdgpu-flat-work-group-size"="N,N"`` pin the group size (with ``1,N`` LLVM
  reports the best occupancy of any smaller group); ``amdgpu-no-*`` attributes
  switch off the hidden inputs the kernel does not read, as LLVM's attributor would.
* **Resources are kernel arguments** holding their descriptors (``amdgcn_memory``):
  buffers as ``<4 x i32>`` buffer resources (``raw.buffer.load/store``, and
  ``s.buffer.load`` for read-only buffers at a wave-uniform address, as shc's
  liveness counts them), textures as ``<8 x i32>`` image descriptors (``image.load``,
  ``image.store``, ``image.sample.l/lz``, ``image.getresinfo``), samplers as
  ``<4 x i32>``, cbuffers as ``ptr addrspace(4)`` (scalar loads), resource arrays
  as ``ptr addrspace(4)`` descriptor tables. Groupshared memory is one
  ``addrspace(3)`` byte array of the module's LDS size (IR addresses are absolute in
  the group's LDS); scratch is one ``addrspace(5)`` alloca.
* **Control flow**: one LLVM block per reachable IR block, plain branches and phis;
  LLVM structurizes the CFG itself.
* **Values**: vectors stay LLVM vectors, ``half`` stays ``half``, bools are ``i1``.
  Float mode as D3D runs compute shaders: IEEE mode off (``"amdgpu-ieee"="false"``:
  no quieting before min/max), fp32 denormals flushed; float ops carry ``nsz arcp
  afn`` (``amdgcn_builder.FLOAT_FLAGS``).
* **Lane exchange** (``amdgcn_wave``): ``update.dpp``, ``mov.dpp8``, ``permlanex16``,
  ``ds.swizzle``, ``ds.bpermute``, ``readlane``, ``readfirstlane``, ``writelane``,
  ``set.inactive``, ``ballot``, ``mbcnt.lo/hi``, on 32-bit words (floats bitcast,
  16-bit values packed in pairs, 64-bit values split). ``wwm=true`` instructions
  form whole-wave regions closed by ``llvm.amdgcn.strict.wwm`` where a normal
  instruction reads their result (what LLVM's atomic optimizer emits). A VALU op
  with ``dpp`` attributes reads operand 0 through ``update.dpp``; LLVM's own
  GCNDPPCombine folds it back (``v_add_f32_dpp``).

Each IR instruction is preceded by a comment with its IR text (``--emit llvm``).
Everything the back end cannot express raises ``AmdgcnError``.
"""

from __future__ import annotations

import re

from ...frontend import hlsl_types as T
from ...ir.core import Block, Inst, Module
from ...ir.ops import Op
from ...ir.printer import Printer
from ...passes.uniformity import Uniformity
from . import arith as amdgcn_arith
from . import memory as amdgcn_memory
from . import textures as amdgcn_textures
from . import wave as amdgcn_wave
from .builder import Builder
from .memory import KernelArguments
from .values import AmdgcnError, constant, llvm_type

__all__ = ["AmdgcnError", "DATA_LAYOUT", "TRIPLE", "to_llvm_ir"]

TRIPLE = "amdgcn-amd-amdhsa"
CPU = "gfx1030"
# The AMDGPU data layout of LLVM 20 (allocas in address space 5: "A5"); a test checks it
# against the target machine's.
DATA_LAYOUT = ("e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-"
               "p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-"
               "v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9")

HANDLERS = {**amdgcn_arith.HANDLERS, **amdgcn_memory.HANDLERS, **amdgcn_textures.HANDLERS,
            **amdgcn_wave.HANDLERS}

# Hidden kernel inputs LLVM enables unless told the kernel does not read them.
_NEVER_USED = ("amdgpu-no-dispatch-ptr", "amdgpu-no-queue-ptr", "amdgpu-no-dispatch-id",
               "amdgpu-no-implicitarg-ptr", "amdgpu-no-hostcall-ptr", "amdgpu-no-heap-ptr",
               "amdgpu-no-multigrid-sync-arg", "amdgpu-no-lds-kernel-id", "amdgpu-no-default-queue",
               "amdgpu-no-completion-action")
_INPUT_INTRINSICS = {
    "amdgpu-no-workitem-id-x": "llvm.amdgcn.workitem.id.x",
    "amdgpu-no-workitem-id-y": "llvm.amdgcn.workitem.id.y",
    "amdgpu-no-workitem-id-z": "llvm.amdgcn.workitem.id.z",
    "amdgpu-no-workgroup-id-x": "llvm.amdgcn.workgroup.id.x",
    "amdgpu-no-workgroup-id-y": "llvm.amdgcn.workgroup.id.y",
    "amdgpu-no-workgroup-id-z": "llvm.amdgcn.workgroup.id.z",
}


_TEMPORARY = re.compile(r"%t\d+\b")


def to_llvm_ir(module: Module) -> str:
    """``module``'s kernel as LLVM IR text for ``amdgcn-amd-amdhsa``, wave size from the module."""
    return KernelEmitter(module).module_text()


def block_label(block: Block) -> str:
    return "bb." + re.sub(r"[^A-Za-z0-9._]", "_", block.name)


class KernelEmitter(Builder):
    """Writes one kernel; the op handlers call back into it (``arg``, ``is_uniform``...)."""

    def __init__(self, module: Module):
        super().__init__(module.function.wave_size)
        self.module = module
        self.function = module.function
        if self.wave_size not in (32, 64):
            raise AmdgcnError(f"RDNA2 waves have 32 or 64 lanes, not {self.wave_size}")
        self.printer = Printer(self.function, show_coords=False)
        self.values: dict[Inst, str] = {}
        self.wwm_exits: dict[Inst, str] = {}
        self.reachable = self._reachable_blocks()
        self.users = {inst: [user for user in users if user.block in self.reachable]
                      for inst, users in self.function.users().items()}
        self.uniformity = module.analyses.get("uniformity") or _uniformity_of(module)
        self.arguments = KernelArguments(module)
        self.globals: list[str] = []
        self.dpp_inst: Inst | None = None  # the DPP-combined op being emitted, and its operand 0
        self.dpp_value = ""

    # -- operands ------------------------------------------------------------------------

    def value(self, operand: Inst, user: Inst | None = None) -> str:
        """The LLVM value of ``operand`` as ``user`` reads it (constants inline)."""
        if operand.op is Op.CONST:
            return constant(operand.attrs.get("value"), operand.type)
        if user is not None and operand in self.wwm_exits and not user.attrs.get("wwm"):
            return self.wwm_exits[operand]
        return self.values.get(operand, "poison")

    def arg(self, inst: Inst, index: int) -> str:
        """Operand ``index`` of ``inst``; a DPP-combined op reads operand 0 through its DPP."""
        if index == 0 and inst is self.dpp_inst:
            return self.dpp_value
        return self.value(inst.operands[index], inst)

    def arg_as(self, inst: Inst, index: int, target: T.Type) -> str:
        """Operand ``index`` converted to ``target`` (HLSL value conversion, splat)."""
        return self.convert(self.arg(inst, index), inst.operands[index].type, target)

    def is_uniform(self, inst: Inst) -> bool:
        return self.uniformity.is_uniform(inst)

    def constant_of(self, inst: Inst):
        """The constant value of ``inst`` (a ``const``), else None."""
        return inst.attrs.get("value") if inst.op is Op.CONST else None

    def component_constant(self, inst: Inst, index: int):
        """Component ``index`` of ``inst`` when it is a known constant (looking through
        ``construct``), else None: a driver sees these folded."""
        if inst.op is Op.CONST:
            value = inst.attrs.get("value")
            return value[index] if isinstance(value, (list, tuple)) else value
        if inst.op is Op.CONSTRUCT and not isinstance(inst.type, (T.ArrayType, T.StructType)):
            for operand in inst.operands:
                width = getattr(operand.type, "components", 1)
                if index < width:
                    return self.component_constant(operand, index)
                index -= width
        return None

    # -- the kernel ----------------------------------------------------------------------

    def module_text(self) -> str:
        body = self.function_body()
        x, y, z = self.function.numthreads
        threads = x * y * z
        header = [f'; shc: {self.module.source_file} @{self.function.name} wave{self.wave_size} '
                  f'numthreads({x}, {y}, {z})',
                  f'target datalayout = "{DATA_LAYOUT}"',
                  f'target triple = "{TRIPLE}"', ""]
        header += self.arguments.globals_text() + self.globals
        params = ", ".join(self.arguments.parameters())
        lines = header + ["", f"define amdgpu_kernel void @{self.function.name}({params}) #0 "
                              f"!reqd_work_group_size !0 {{"]
        lines += body + ["}", ""]
        lines += sorted(self.declarations.values())
        attributes = [f'"amdgpu-flat-work-group-size"="{threads},{threads}"',
                      '"uniform-work-group-size"="true"', f'"target-cpu"="{CPU}"',
                      f'"target-features"="+wavefrontsize{self.wave_size}"',
                      '"denormal-fp-math-f32"="preserve-sign,preserve-sign"', '"amdgpu-ieee"="false"']
        attributes += [f'"{name}"' for name in _NEVER_USED]
        attributes += [f'"{name}"' for name, intrinsic in _INPUT_INTRINSICS.items()
                       if intrinsic not in self.declarations]
        lines += ["", "attributes #0 = { " + " ".join(attributes) + " }",
                  f"!0 = !{{i32 {x}, i32 {y}, i32 {z}}}", "!1 = !{}", ""]
        return "\n".join(lines)

    def _reachable_blocks(self) -> set[Block]:
        seen: set[Block] = set()
        stack = [self.function.entry]
        while stack:
            block = stack.pop()
            if block in seen:
                continue
            seen.add(block)
            if block.terminator is None:
                raise AmdgcnError(f"^{block.name} does not end in a terminator")
            stack.extend(block.successors)
        return seen

    def function_body(self) -> list[str]:
        blocks = [block for block in self.function.blocks if block in self.reachable]
        self.edges = self._edge_counts(blocks)
        for block in blocks:
            for inst in block.insts:
                if inst.type != T.VOID and inst.op is not Op.CONST:
                    self.values[inst] = "%v" + self.printer.value(inst)[1:]
        self.lines.append("prologue:")
        self.arguments.prologue(self)
        self.emit(f"br label %{block_label(blocks[0])}")
        for block in blocks:
            self.lines.append(f"{block_label(block)}:")
            for inst in block.insts:
                self.instruction(inst)
        return self.lines

    def _edge_counts(self, blocks: list[Block]) -> dict[Block, list[Block]]:
        """For each block, its predecessors once per branch edge (LLVM's phi rule)."""
        preds: dict[Block, list[Block]] = {block: [] for block in blocks}
        for block in blocks:
            for target in self.branch_targets(block.terminator):
                preds[target].append(block)
        return preds

    @staticmethod
    def branch_targets(term: Inst) -> list[Block]:
        if term.op is Op.COND_BR and term.targets[0] is term.targets[1]:
            return [term.targets[0]]
        if term.op is Op.SWITCH:
            return [term.targets[0]] + [target for _, target in switch_cases(term)]
        return list(term.targets)

    # -- instructions --------------------------------------------------------------------

    def instruction(self, inst: Inst) -> None:
        if inst.op is Op.CONST:
            return
        self.lines.append("  ; " + self.printer.instruction(inst))
        if inst.op is Op.PHI:
            self.phi(inst)
        elif inst.is_terminator:
            self.terminator(inst)
        else:
            handler = HANDLERS.get(inst.op)
            if handler is None:
                raise AmdgcnError(f"{inst.op.value} has no amdgcn lowering"
                                  + (" (run lower-wave-ops first)" if inst.op.value.startswith(("wave", "quad"))
                                     else ""))
            start = len(self.lines)
            if "dpp" in inst.attrs:
                self.dpp_value = amdgcn_wave.dpp_read(self, inst)
                self.dpp_inst = inst
            result = handler(self, inst)
            self.dpp_inst = None
            if inst.type != T.VOID:
                if result is None:
                    raise AmdgcnError(f"{inst.op.value} produced no value")
                self.name_result(inst, result, start)
        if inst.attrs.get("wwm") and inst.type != T.VOID and \
                any(not user.attrs.get("wwm") for user in self.users.get(inst, [])):
            self.wwm_exits[inst] = amdgcn_wave.leave_whole_wave(self, self.values[inst], inst.type)

    def name_result(self, inst: Inst, result: str, start: int) -> None:
        """Give the handler's result the IR value's name (``%v12`` for ``%12``): rename the
        temporary it defined, or copy a value defined elsewhere (a no-op cast LLVM drops)."""
        name = self.values[inst]
        lines = self.lines[start:]
        if _TEMPORARY.fullmatch(result) and any(line.startswith(f"  {result} = ") for line in lines):
            def rename(match):
                return name if match.group(0) == result else match.group(0)
            self.lines[start:] = [_TEMPORARY.sub(rename, line) for line in lines]
            return
        llvm = llvm_type(inst.type)
        if llvm.startswith(("[", "{")):
            self.emit(f"{name} = select i1 true, {llvm} {result}, {llvm} poison")
        else:
            self.emit(f"{name} = bitcast {llvm} {result} to {llvm}")

    def phi(self, inst: Inst) -> None:
        incoming = {}
        for operand, block in zip(inst.operands, inst.targets):
            incoming.setdefault(block, operand)
        pairs = []
        for pred in self.edges.get(inst.block, []):
            operand = incoming.get(pred)
            value = self.value(operand, inst) if operand is not None else "poison"
            pairs.append(f"[ {value}, %{block_label(pred)} ]")
        if not pairs:
            raise AmdgcnError(f"phi in ^{inst.block.name} has no reachable predecessor")
        self.emit(f"{self.values[inst]} = phi {llvm_type(inst.type)} " + ", ".join(pairs))

    def terminator(self, term: Inst) -> None:
        if term.op is Op.RETURN:
            self.emit("ret void")
        elif term.op is Op.BR or (term.op is Op.COND_BR and term.targets[0] is term.targets[1]):
            self.emit(f"br label %{block_label(term.targets[0])}")
        elif term.op is Op.COND_BR:
            condition = self.arg_as(term, 0, T.BOOL)
            taken, not_taken = term.targets
            self.emit(f"br i1 {condition}, label %{block_label(taken)}, label %{block_label(not_taken)}")
        elif term.op is Op.SWITCH:
            selector = self.arg(term, 0)
            selector_type = llvm_type(term.operands[0].type)
            cases = " ".join(f"{selector_type} {constant(value, term.operands[0].type)}, label %{block_label(target)}"
                             for value, target in switch_cases(term))
            self.emit(f"switch {selector_type} {selector}, label %{block_label(term.targets[0])} [ {cases} ]")
        else:
            raise AmdgcnError(f"unknown terminator {term.op.value}")


def _uniformity_of(module: Module):
    """Uniformity for a module that has none yet, leaving the module's analyses as they were."""
    Uniformity().run(module)
    return module.analyses.pop("uniformity")


def switch_cases(term: Inst) -> list[tuple[int, Block]]:
    """``(case value, target)`` pairs; a repeated value keeps its first target, as lanes do."""
    cases = list(term.attrs.get("cases", []))
    if len(term.targets) != len(cases) + 1:
        raise AmdgcnError("switch needs a default target and one target per entry of cases=[...]")
    seen: dict[int, Block] = {}
    for value, target in zip(cases, term.targets[1:]):
        seen.setdefault(int(value), target)
    return list(seen.items())
