"""`padax.utils`: helpers outside the core API (moving weights between framework layouts; C++ custom operators
in `padax.utils.cpp_extension`)."""
from padax.utils.convert import convert_state_dict  # noqa: F401
