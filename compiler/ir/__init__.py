"""The typed SSA IR over structured control flow.

- the IR core: ``core.py`` (modules, functions, blocks, instructions), ``ops.py``
  (every operation and the groups passes test against), ``printer.py`` and
  ``reader.py`` (the text form), ``verify.py``, ``dominance.py``, ``structure.py``;
- ``lower/``: the checked AST to IR (``lower.from_ast.lower``);
- ``interpret/``: the reference interpreter, the IR's executable semantics.
"""
