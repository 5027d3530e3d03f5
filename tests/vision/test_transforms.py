"""padax.vision.transforms against Paddle's (Pillow backend for uint8 images, Tensor backend for Tensors)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import padax
from padax.vision import transforms as T
from padax.vision.transforms import functional as F
from tests.conftest import paddle_oracle

Image = pytest.importorskip("PIL.Image")

RNG = np.random.default_rng(0)
IMG = RNG.integers(0, 256, (23, 31, 3), dtype=np.uint8)
X = RNG.random((3, 23, 31)).astype(np.float32)
SP = [[0, 0], [30, 0], [30, 22], [0, 22]]
EP = [[2, 3], [28, 1], [29, 20], [1, 21]]


@pytest.fixture(scope="module")
def PF():
    paddle_oracle()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import paddle.vision.transforms.functional as PF
    return PF


def _close(a, b, atol):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    np.testing.assert_allclose(a, b, atol=atol, rtol=0)


UINT8_CASES = [
    ("resize_short", lambda f, i: f.resize(i, 12)),
    ("resize_bicubic", lambda f, i: f.resize(i, (40, 17), "bicubic")),
    ("resize_nearest", lambda f, i: f.resize(i, (9, 50), "nearest")),
    ("resize_lanczos", lambda f, i: f.resize(i, (11, 13), "lanczos")),
    ("pad_fill", lambda f, i: f.pad(i, (1, 2, 3, 4), fill=(5, 6, 7))),
    ("pad_reflect", lambda f, i: f.pad(i, 3, padding_mode="reflect")),
    ("pad_symmetric", lambda f, i: f.pad(i, (2, 5), padding_mode="symmetric")),
    ("center_crop", lambda f, i: f.center_crop(i, 10)),
    ("crop", lambda f, i: f.crop(i, 3, 4, 10, 12)),
    ("hflip", lambda f, i: f.hflip(i)),
    ("vflip", lambda f, i: f.vflip(i)),
    ("brightness", lambda f, i: f.adjust_brightness(i, 1.3)),
    ("contrast", lambda f, i: f.adjust_contrast(i, 0.6)),
    ("saturation", lambda f, i: f.adjust_saturation(i, 1.6)),
    ("hue", lambda f, i: f.adjust_hue(i, 0.2)),
    ("hue_neg", lambda f, i: f.adjust_hue(i, -0.45)),
    ("affine", lambda f, i: f.affine(i, 20, (2, -3), 0.9, (5, 3), "bilinear")),
    ("affine_center", lambda f, i: f.affine(i, -15, [1, 1], 1.2, 7.0, "nearest", center=(4, 6))),
    ("rotate_expand", lambda f, i: f.rotate(i, 33, expand=True, fill=3)),
    ("rotate_center", lambda f, i: f.rotate(i, -70, "bilinear", center=(3, 4))),
    ("perspective", lambda f, i: f.perspective(i, SP, EP, "bilinear")),
    ("gray1", lambda f, i: np.asarray(f.to_grayscale(i)).reshape(23, 31)),
    ("gray3", lambda f, i: f.to_grayscale(i, 3)),
    ("to_tensor", lambda f, i: np.asarray(f.to_tensor(i))),
    ("normalize", lambda f, i: np.asarray(f.normalize(f.to_tensor(i), [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]))),
]


@pytest.mark.parametrize("name,fn", UINT8_CASES, ids=[c[0] for c in UINT8_CASES])
def test_uint8_matches_paddle_pil_backend(PF, name, fn):
    ours = fn(F, IMG)
    theirs = fn(PF, Image.fromarray(IMG))
    assert isinstance(ours, np.ndarray)
    if ours.dtype == np.uint8:
        _close(ours, theirs, 1)  # to one unit of uint8 (Pillow computes both: they are equal)
    else:
        _close(ours, theirs, 1e-6)


def test_pil_input_stays_pil():
    out = F.rotate(Image.fromarray(IMG), 10)
    assert isinstance(out, Image.Image)
    for mode in ("reflect", "edge", "constant"):
        padded = F.pad(Image.fromarray(IMG), (1, 2, 3, 4), 5, mode)
        assert isinstance(padded, Image.Image)
        np.testing.assert_array_equal(np.asarray(padded), F.pad(IMG, (1, 2, 3, 4), 5, mode))
    gray = Image.fromarray(IMG[..., 0])
    np.testing.assert_array_equal(np.asarray(F.pad(gray, 2, padding_mode="symmetric")),
                                  np.pad(IMG[..., 0], 2, "symmetric"))
    np.testing.assert_array_equal(np.asarray(F.hflip(Image.fromarray(IMG))), IMG[:, ::-1])


TENSOR_CASES = [
    ("resize", lambda f, x: f.resize(x, (12, 40)), 1e-5),
    ("resize_nearest", lambda f, x: f.resize(x, 11, "nearest"), 1e-6),
    ("brightness", lambda f, x: f.adjust_brightness(x, 1.3), 1e-6),
    ("contrast", lambda f, x: f.adjust_contrast(x, 0.6), 1e-6),
    ("saturation", lambda f, x: f.adjust_saturation(x, 1.6), 1e-6),
    ("hue", lambda f, x: f.adjust_hue(x, 0.2), 1e-5),
    ("gray", lambda f, x: f.to_grayscale(x, 3), 1e-6),
    ("affine", lambda f, x: f.affine(x, 20, (2, -3), 0.9, (5, 3), "bilinear", fill=0.5), 1e-5),
    ("rotate", lambda f, x: f.rotate(x, 33, "bilinear", expand=True, fill=0.25), 1e-5),
    ("rotate_center", lambda f, x: f.rotate(x, -20, "bilinear", center=(5, 9)), 1e-5),
    ("perspective", lambda f, x: f.perspective(x, SP, EP, "bilinear", fill=0.1), 1e-5),
    ("pad", lambda f, x: f.pad(x, (1, 2, 3, 4), fill=0.3), 0),
    ("pad_edge", lambda f, x: f.pad(x, 2, padding_mode="edge"), 0),
    ("pad_reflect", lambda f, x: f.pad(x, [2, 1], padding_mode="reflect"), 0),
    ("center_crop", lambda f, x: f.center_crop(x, (10, 7)), 0),
    ("hflip", lambda f, x: f.hflip(x), 0),
    ("vflip", lambda f, x: f.vflip(x), 0),
    ("normalize", lambda f, x: f.normalize(x, [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]), 1e-6),
    ("erase", lambda f, x: f.erase(x, 2, 3, 4, 5, 0.7), 0),
]


@pytest.mark.parametrize("name,fn,atol", TENSOR_CASES, ids=[c[0] for c in TENSOR_CASES])
def test_tensor_matches_paddle_tensor_backend(PF, name, fn, atol):
    import paddle
    ours = fn(F, padax.to_tensor(X))
    assert isinstance(ours, padax.Tensor)
    _close(ours, fn(PF, paddle.to_tensor(X)).numpy(), atol)


def test_chw_numpy_from_to_tensor_follows_tensor_formulas(PF):
    import paddle
    x = F.to_tensor(IMG)
    assert isinstance(x, np.ndarray) and x.shape == (3, 23, 31) and x.dtype == np.float32
    _close(F.adjust_saturation(x, 0.4), PF.adjust_saturation(paddle.to_tensor(x), 0.4).numpy(), 1e-6)
    erased = T.RandomErasing(prob=1.0, value=[1, 2, 3], generator=3)(x)
    assert erased.shape == x.shape and np.isin([1.0, 2.0, 3.0], erased).all()
    changed = erased != x
    assert changed.any() and not changed.all()


def test_affine_fill_is_used_for_outside_pixels():
    out = F.affine(IMG, 0, (10, 0), 1.0, 0.0, fill=(9, 8, 7))
    np.testing.assert_array_equal(out[:, :10], np.broadcast_to([9, 8, 7], (23, 10, 3)))
    np.testing.assert_array_equal(out[:, 10:], IMG[:, :-10])


def test_float_hwc_geometry_per_channel():
    f = IMG.astype(np.float32)
    np.testing.assert_allclose(F.resize(f, (11, 13), "nearest"), F.resize(IMG, (11, 13), "nearest"))
    out = F.rotate(f, 90, expand=True)
    np.testing.assert_allclose(out, np.rot90(f))


def test_compose_with_paddle_classes(PF):
    import paddle.vision.transforms as PT
    ours = T.Compose([T.Resize(16), T.CenterCrop(14), T.Pad(1), T.Grayscale(3), T.ToTensor(),
                      T.Normalize(0.5, 0.5)])(IMG)
    theirs = PT.Compose([PT.Resize(16), PT.CenterCrop(14), PT.Pad(1), PT.Grayscale(3), PT.ToTensor(),
                         PT.Normalize(0.5, 0.5)])(Image.fromarray(IMG))
    _close(ours, theirs.numpy(), 1e-6)
    hwc = T.Transpose()(IMG)
    assert hwc.shape == (3, 23, 31)


def _fixed(rng_seed):
    return dict(generator=np.random.default_rng(rng_seed))


def test_random_transforms_are_reproducible_and_take_the_global_seed():
    t = T.Compose([T.RandomResizedCrop(12), T.RandomHorizontalFlip(), T.ColorJitter(0.4, 0.4, 0.4, 0.1),
                   T.RandomRotation(30), T.RandomAffine(10, (0.1, 0.1), (0.9, 1.1), 5), T.RandomPerspective(),
                   T.RandomErasing(value="random")])
    padax.seed(7)
    a = [t(IMG) for _ in range(3)]
    padax.seed(7)
    b = [t(IMG) for _ in range(3)]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
        assert x.shape == (12, 12, 3) and x.dtype == np.uint8
    assert not all(np.array_equal(a[0], x) for x in a[1:])
    padax.seed(8)
    assert not np.array_equal(t(IMG), a[0])


def test_random_crop_geometry_equals_functional_crop():
    seeds = [np.random.default_rng(5), np.random.default_rng(5)]
    out = T.RandomCrop(10, padding=2, generator=seeds[0])(IMG)
    i, j = seeds[1].integers(0, 27 - 10 + 1), seeds[1].integers(0, 35 - 10 + 1)
    np.testing.assert_array_equal(out, F.crop(F.pad(IMG, 2), i, j, 10, 10))
    assert T.RandomCrop((30, 40), pad_if_needed=True, generator=0)(IMG).shape == (30, 40, 3)


def test_random_flip_probabilities():
    assert np.array_equal(T.RandomHorizontalFlip(1.0, generator=0)(IMG), IMG[:, ::-1])
    assert np.array_equal(T.RandomVerticalFlip(0.0, generator=0)(IMG), IMG)
    flips = [np.array_equal(T.RandomVerticalFlip(0.5, generator=s)(IMG), IMG[::-1]) for s in range(40)]
    assert 5 < sum(flips) < 35


def test_random_rotation_and_affine_match_functional_with_same_draws():
    out = T.RandomRotation((10, 20), generator=np.random.RandomState(3))(IMG)
    angle = np.random.RandomState(3).uniform(10, 20)
    np.testing.assert_array_equal(out, F.rotate(IMG, angle))
    t = T.RandomAffine(0, translate=(0.2, 0.2), generator=np.random.default_rng(1))
    g = np.random.default_rng(1)
    g.uniform(0, 0)
    tx, ty = int(g.uniform(-0.2 * 31, 0.2 * 31)), int(g.uniform(-0.2 * 23, 0.2 * 23))
    np.testing.assert_array_equal(t(IMG), F.affine(IMG, 0.0, (tx, ty), 1.0, (0.0, 0.0)))


def test_random_resized_crop_and_color_ranges():
    out = T.RandomResizedCrop((8, 9), scale=(0.5, 0.5), ratio=(1, 1), generator=0)(IMG)
    assert out.shape == (8, 9, 3)
    bright = T.BrightnessTransform((2.0, 2.0))(IMG)  # a fixed factor draws nothing that matters
    np.testing.assert_array_equal(bright, F.adjust_brightness(IMG, 2.0))
    assert T.HueTransform(0)(IMG) is IMG and T.ContrastTransform(0)(IMG) is IMG
    s = T.SaturationTransform(0.5, generator=2)(IMG)
    assert s.shape == IMG.shape and not np.array_equal(s, IMG)


def test_base_transform_keys_share_params():
    class Shift(T.BaseTransform):
        def __init__(self, keys=None):
            super().__init__(keys)

        def _get_params(self, inputs):
            return int(inputs[0].shape[0])

        def _apply_image(self, image):
            return image + self.params

        def _apply_boxes(self, boxes):
            return boxes - self.params

    img, boxes = np.zeros((2, 2)), np.zeros(4)
    out = Shift(keys=("image", "boxes"))((img, boxes, "label"))
    assert out[0][0, 0] == 2 and out[1][0] == -2 and out[2] == "label"
    with pytest.raises(ValueError, match="_apply_mask"):
        Shift(keys=("image", "mask"))


def test_wrong_layout_and_dtype_say_what_was_expected():
    with pytest.raises(ValueError, match=r"channel-last \(HWC\).*transpose"):
        F.hflip(np.zeros((3, 16, 16), np.uint8))
    with pytest.raises(ValueError, match=r"channel-first \(CHW\)"):
        F.resize(padax.zeros([16, 16, 3]), 8)
    with pytest.raises(TypeError, match="uint8 or a float"):
        F.hflip(np.zeros((4, 4, 3), bool))
    with pytest.raises(ValueError, match="HW or HWC"):
        F.resize(np.zeros((2, 4, 4, 3), np.uint8), 2)
    with pytest.raises(TypeError, match="numpy HWC image"):
        F.vflip([[1, 2]])
    with pytest.raises(ValueError, match="1 or 3 channels"):
        F.adjust_saturation(np.zeros((4, 4, 2), np.uint8), 0.5)
    with pytest.raises(TypeError, match="generator"):
        T.RandomCrop(3, generator="seed")
    with pytest.raises(ValueError, match="interpolation"):
        F.resize(IMG, 5, "cubic")


def test_random_transforms_on_tensors_and_pil_images():
    x = padax.to_tensor(X)
    t = T.Compose([T.RandomRotation(20, generator=1), T.ColorJitter(0.3, 0.3, 0.3, 0.05, generator=2),
                   T.RandomErasing(prob=1.0, value="random", generator=3), T.RandomPerspective(1.0, generator=4)])
    out = t(x)
    assert isinstance(out, padax.Tensor) and tuple(out.shape) == X.shape
    angle = np.random.default_rng(1).uniform(-20, 20)
    np.testing.assert_allclose(T.RandomRotation(20, generator=1)(x), F.rotate(x, angle), atol=1e-6)
    pil = T.RandomErasing(prob=1.0, value=(1, 2, 3), generator=0)(Image.fromarray(IMG))
    assert isinstance(pil, Image.Image) and (np.asarray(pil) == [1, 2, 3]).all(axis=-1).any()
