"""AST lowering: the checked program to one SSA function (``from_ast.lower``; its
docstring lists what each module of this package does)."""
