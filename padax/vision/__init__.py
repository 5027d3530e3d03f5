"""`padax.vision`: Paddle's vision library (transforms, datasets, detection ops) on padax."""
from padax.vision import datasets  # noqa: F401
from padax.vision import ops  # noqa: F401
from padax.vision import transforms  # noqa: F401
from padax.vision.image import get_image_backend, image_load, set_image_backend  # noqa: F401
