"""`padax.vision`: Paddle's vision library (transforms, datasets, detection ops) on padax."""
from padax.vision import datasets  # noqa: F401
from padax.vision import ops  # noqa: F401
from padax.vision import transforms  # noqa: F401
