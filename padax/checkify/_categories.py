"""The categories of checks that `checkify(f, errors=...)` turns on: user_checks, nan_checks,
div_checks, index_checks and their unions float_checks, automatic_checks, all_checks."""
from __future__ import annotations

user_checks = frozenset({"user"})
nan_checks = frozenset({"nan"})
div_checks = frozenset({"div"})
index_checks = frozenset({"index"})
float_checks = nan_checks | div_checks
automatic_checks = float_checks | index_checks
all_checks = automatic_checks | user_checks
