"""`padax.scipy.spatial`: distance.cdist and transform.Rotation."""
from padax.scipy.spatial import distance, transform  # noqa: F401
