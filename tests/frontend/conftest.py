"""The helper modules the test files here import get pytest's assertion rewriting, as the
asserts in them had while they were part of a test file: a failing check shows its values."""

import pytest

pytest.register_assert_rewrite("parser_helpers", "sema_helpers")
