"""`padax.vision.ops`: detection ops with Paddle's signatures (paddle.vision.ops).

roi_align, roi_pool, psroi_pool, deform_conv2d, box_coder, prior_box, yolo_box and yolo_loss jit;
roi_align, deform_conv2d and yolo_loss differentiate (as Paddle's do). nms, matrix_nms,
generate_proposals and distribute_fpn_proposals return data-dependent sizes: their work is
compiled, the final selection of boxes runs eagerly. read_file/decode_jpeg read images with
Pillow on the host.
"""
from padax.vision.ops._roi import PSRoIPool, RoIAlign, RoIPool, psroi_pool, roi_align, roi_pool  # noqa: F401
from padax.vision.ops._deform import DeformConv2D, deform_conv2d  # noqa: F401
from padax.vision.ops._boxes import (box_coder, distribute_fpn_proposals, generate_proposals, nms,  # noqa: F401
                                     prior_box, yolo_box)
from padax.vision.ops._io import decode_jpeg, read_file  # noqa: F401
from padax.vision.ops._matrix_nms import matrix_nms  # noqa: F401
from padax.vision.ops._yolo_loss import yolo_loss  # noqa: F401
