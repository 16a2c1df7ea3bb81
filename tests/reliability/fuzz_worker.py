"""The child process of test_fuzz_pipeline: compiles mutated samples through every stage.

Reads ``count seed`` from argv; for each input prints ``start N`` before it and ``done N
outcome seconds`` after it, so the parent knows which input was running when a crash or a
hang ended this process. An outcome is ``ok``, ``diagnostic`` or ``FAIL <what>``."""

import random
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "frontend"))

from test_fuzz import mutate  # noqa: E402  (the front-end fuzzer's mutations)

from shc.compiler.backend.host.module import build_host_module  # noqa: E402
from shc.compiler.backend.rdna2.listing import render_listing  # noqa: E402
from shc.compiler.diagnostics import CompileError, Diagnostics, Unsupported  # noqa: E402
from shc.compiler.pipeline import Options, compile_source  # noqa: E402


def inputs(count: int, seed: int):
    samples = sorted((ROOT / "samples").glob("*.hlsl"))
    texts = [(path, path.read_text()) for path in samples]
    rng = random.Random(seed)
    for number in range(count):
        path, text = texts[number % len(texts)]
        description = "original"
        for _ in range(rng.randrange(1, 4)):  # one to three mutations stacked
            try:
                description, text = mutate(text, rng)
            except (IndexError, ValueError):  # too little text left for this kind of mutation
                break
        yield number, path, description, text


def compile_everything(text: str, filename: str) -> str:
    diagnostics = Diagnostics()
    try:
        module = compile_source(text, filename, Options(wave_size=32), diagnostics)
        render_listing(module)
        build_host_module(module)
    except Unsupported as failure:  # a known gap of a back end: a positioned error, as the CLI prints it
        return "FAIL unsupported without a position" if failure.coord.line <= 0 else "diagnostic"
    except CompileError:
        text = diagnostics.render()
        if "internal compiler error" in text:
            return "FAIL internal compiler error in a diagnostic"
        return "diagnostic"
    return "ok"


def main() -> None:
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    for number, path, description, text in inputs(count, seed):
        print(f"start {number}", flush=True)
        started = time.monotonic()
        try:
            outcome = compile_everything(text, str(path))
        except Exception as failure:  # the bug this fuzzer looks for
            kind = "".join(traceback.format_exception_only(type(failure), failure)).strip().splitlines()[-1]
            outcome = f"FAIL {kind}"
        print(f"done {number} {outcome} {time.monotonic() - started:.2f}", flush=True)


if __name__ == "__main__":
    main()
