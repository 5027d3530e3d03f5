"""`padax.utils`: helpers outside the core API (moving weights between framework layouts)."""
from padax.utils.convert import convert_state_dict  # noqa: F401
