"""ops"""
from padax.vision.ops._roi import PSRoIPool, RoIAlign, RoIPool, psroi_pool, roi_align, roi_pool  # noqa: F401
