"""`padax.vision.transforms`: Paddle's image transforms, as classes and as functions (`functional`).

They run on the host in numpy (and Pillow for uint8 images), so they belong in a Dataset's
`__getitem__` and run in DataLoader workers. Random transforms take `generator=` or draw from
padax's global seed (see `padax.vision.transforms._rng`).
"""
from padax.vision.transforms import functional  # noqa: F401
from padax.vision.transforms.functional import (adjust_brightness, adjust_contrast, adjust_hue,  # noqa: F401
                                                adjust_saturation, affine, center_crop, crop, erase, hflip,
                                                normalize, pad, perspective, resize, rotate, to_grayscale,
                                                to_tensor, vflip)
from padax.vision.transforms.transforms import (BaseTransform, BrightnessTransform, CenterCrop,  # noqa: F401
                                                ColorJitter, Compose, ContrastTransform, Grayscale, HueTransform,
                                                Normalize, Pad, RandomAffine, RandomCrop, RandomErasing,
                                                RandomHorizontalFlip, RandomPerspective, RandomResizedCrop,
                                                RandomRotation, RandomVerticalFlip, Resize, SaturationTransform,
                                                ToTensor, Transpose)
