"""The typed SSA IR over structured control flow (see core.py and ops.py)."""
