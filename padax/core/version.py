"""padax's version (one place: padax/__init__ re-exports it, and the compilation cache keys on it)."""
__version__ = "0.1.0"
