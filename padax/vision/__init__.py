"""`padax.vision`: Paddle's vision library (model zoo with Paddle's layer names and weight layouts, ...)."""
from padax.vision import models  # noqa: F401
