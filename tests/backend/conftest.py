"""The helper module the test_host_*.py files import gets pytest's assertion rewriting, as
its asserts had while they were part of a test file: a failing check shows its values."""

import pytest

pytest.register_assert_rewrite("host_helpers")
