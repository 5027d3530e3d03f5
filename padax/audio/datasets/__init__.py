"""`padax.audio.datasets`: ESC50 and TESS, read from their extracted archives (padax does not download)."""
from padax.audio.datasets.esc50 import ESC50
from padax.audio.datasets.tess import TESS

__all__ = ["ESC50", "TESS"]
