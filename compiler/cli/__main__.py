"""``python -m shc.compiler.cli``."""

from . import main

main()
