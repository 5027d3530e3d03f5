"""padax.vision.datasets on the bundled samples, against Paddle's readers on the same files."""
from __future__ import annotations

import io
import os
import pickle
import tarfile
import warnings

import numpy as np
import pytest

from padax.vision import datasets as D
from padax.vision import transforms as T
from padax.vision.datasets._safe_pickle import UnsafePickleError, safe_load
from tests.conftest import paddle_oracle

pytest.importorskip("PIL.Image")

S = D.sample_path
MNIST_FILES = (S("mnist/train-images-idx3-ubyte.gz"), S("mnist/train-labels-idx1-ubyte.gz"))


@pytest.fixture(scope="module")
def PD():
    paddle_oracle()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import paddle.vision.datasets as PD
    return PD


def _same(ours, theirs):
    assert len(ours) == len(theirs) > 0
    for i in range(len(ours)):
        for x, y in zip(ours[i], theirs[i]):
            x, y = np.asarray(x), np.asarray(y)
            assert x.shape == y.shape and x.dtype == y.dtype, (i, x.shape, y.shape, x.dtype, y.dtype)
            np.testing.assert_array_equal(x, y)


CASES = {
    "mnist_pil": lambda M: M.MNIST(*MNIST_FILES),
    "mnist_cv2_test": lambda M: M.FashionMNIST(S("mnist/t10k-images-idx3-ubyte.gz"),
                                               S("mnist/t10k-labels-idx1-ubyte.gz"), mode="test", backend="cv2"),
    "cifar10_test": lambda M: M.Cifar10(S("cifar-10-python.tar.gz"), mode="test"),
    "cifar10_train_cv2": lambda M: M.Cifar10(S("cifar-10-python.tar.gz"), backend="cv2"),
    "cifar100": lambda M: M.Cifar100(S("cifar-100-python.tar.gz")),
    "voc_valid": lambda M: M.VOC2012(S("VOCtrainval_11-May-2012.tar"), mode="valid"),
    "voc_train_cv2": lambda M: M.VOC2012(S("VOCtrainval_11-May-2012.tar"), backend="cv2"),
    "dataset_folder": lambda M: M.DatasetFolder(S("folder")),
    "image_folder": lambda M: M.ImageFolder(S("folder")),
}


@pytest.mark.parametrize("name", list(CASES))
def test_readers_match_paddle(PD, name):
    _same(CASES[name](D), CASES[name](PD))


def test_cifar_sizes_and_transform():
    train = D.Cifar10(S("cifar-10-python.tar.gz"), transform=T.Compose([T.ToTensor(), T.Normalize(0.5, 0.5)]))
    assert len(train) == 50 and train.images.shape == (50, 3, 32, 32)
    x, y = train[3]
    assert x.shape == (3, 32, 32) and x.dtype == np.float32 and y.dtype == np.int64 and y.shape == ()
    assert -1.0 <= x.min() and x.max() <= 1.0
    c100 = D.Cifar100(S("cifar-100-python.tar.gz"), mode="test")
    assert len(c100) == 20 and int(c100.labels.max()) < 100


def test_flowers_reads_jpgs_and_mat_labels():
    import scipy.io
    files = (S("flowers/102flowers.tgz"), S("flowers/imagelabels.mat"), S("flowers/setid.mat"))
    labels = scipy.io.loadmat(files[1])["labels"][0]
    for mode, key in (("train", "tstid"), ("valid", "valid"), ("test", "trnid")):
        ds = D.Flowers(*files, mode=mode, backend="cv2")
        ids = scipy.io.loadmat(files[2])[key][0]
        assert len(ds) == len(ids)
        img, label = ds[1]
        assert img.shape == (32, 40, 3) and img.dtype == np.float32
        assert label.tolist() == [labels[ids[1] - 1]]
    img, _ = D.Flowers(*files, transform=T.Resize(16))[0]
    assert img.size == (20, 16)  # a PIL image, shorter side 16


def test_mnist_values_are_the_idx_bytes():
    import gzip
    raw = gzip.open(MNIST_FILES[0]).read()
    ds = D.MNIST(*MNIST_FILES, backend="cv2")
    np.testing.assert_array_equal(ds[7][0], np.frombuffer(raw[16:], np.uint8).reshape(-1, 28, 28)[7])
    assert ds[7][0].dtype == np.float32 and ds[7][1].shape == (1,)


def test_missing_files_name_the_file_and_where_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PADAX_DATA_HOME", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=r"mnist.*train-images-idx3-ubyte\.gz.*https://dataset\.bj\.bcebos"):
        D.MNIST()
    with pytest.raises(FileNotFoundError, match=r"download=False.*cifar-10-python\.tar\.gz"):
        D.Cifar10(download=False)
    with pytest.raises(FileNotFoundError, match=r"data_file='/nope/x\.tar' does not exist"):
        D.VOC2012("/nope/x.tar")
    # a file put in the cache directory is found
    os.makedirs(tmp_path / "mnist")
    for f in MNIST_FILES:
        with open(f, "rb") as src, open(tmp_path / "mnist" / os.path.basename(f), "wb") as dst:
            dst.write(src.read())
    assert len(D.MNIST()) == 100
    with pytest.raises(ValueError, match="mode must be one of"):
        D.MNIST(*MNIST_FILES, mode="val")
    with pytest.raises(ValueError, match="not an idx image file"):
        D.MNIST(MNIST_FILES[1], MNIST_FILES[1])


def _tar_with(tmp_path, name, payload):
    path = tmp_path / "cifar.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        info = tarfile.TarInfo(name)
        info.size = len(payload)
        tar.addfile(info, io.BytesIO(payload))
    return str(path)


class _RunsACommand:
    def __reduce__(self):
        return (os.system, ("touch /tmp/padax_pwned",))


def test_cifar_batches_are_never_unpickled_unrestricted(tmp_path):
    marker = "/tmp/padax_pwned"
    if os.path.exists(marker):
        os.remove(marker)
    evil = pickle.dumps({b"data": _RunsACommand(), b"labels": [0]}, protocol=2)
    path = _tar_with(tmp_path, "cifar-10-batches-py/data_batch_1", evil)
    with pytest.raises(UnsafePickleError, match=r"posix\.system|os\.system"):
        D.Cifar10(path)
    assert not os.path.exists(marker)
    with pytest.raises(UnsafePickleError, match="builtins.eval"):
        safe_load(b"\x80\x02cbuiltins\neval\nX\x04\x00\x00\x001+1\x85R.")


def test_python2_style_batch_with_numpy_core_global(tmp_path):
    data = np.arange(2 * 3072, dtype=np.uint8).reshape(2, 3072)
    raw = pickle.dumps({b"data": data, b"labels": [3, 4]}, protocol=2)
    raw = raw.replace(b"numpy._core.multiarray", b"numpy.core.multiarray")  # as the real CIFAR files name it
    ds = D.Cifar10(_tar_with(tmp_path, "cifar-10-batches-py/data_batch_1", raw), backend="cv2")
    np.testing.assert_array_equal(ds.images.reshape(2, -1), data)
    assert ds[1][1] == 4


def test_folder_datasets_classes_and_errors(tmp_path):
    ds = D.DatasetFolder(S("folder"))
    assert ds.classes == ["circle", "square"] and ds.targets == [0] * 4 + [1] * 4
    assert all(not p.endswith(".txt") for p, _ in ds.samples)
    txt = D.DatasetFolder(S("folder"), loader=lambda p: open(p).read(), extensions=(".txt",))
    assert len(txt) == 1 and txt[0][1] == 1
    with pytest.raises(RuntimeError, match="found no files"):
        D.ImageFolder(str(tmp_path))
    with pytest.raises(FileNotFoundError, match="not a folder"):
        D.DatasetFolder(str(tmp_path / "missing"))


def test_dataloader_workers_repeat_random_transforms_for_any_worker_count():
    import padax
    ds = D.MNIST(*MNIST_FILES, backend="cv2", transform=T.Compose([T.RandomCrop(24), T.ToTensor()]))

    def first_epoch(workers):
        padax.seed(3)
        return [np.asarray(x) for x, _ in padax.io.DataLoader(ds, batch_size=50, num_workers=workers)]
    one, two = first_epoch(1), first_epoch(2)
    assert len(two) == 2 and two[0].shape == (50, 1, 24, 24)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)
    crops = np.stack([ds[0][0] for _ in range(6)])  # main process: draws differ from call to call
    assert len({c.tobytes() for c in crops}) > 1


def test_image_backend_switches_what_datasets_return():
    from padax import vision
    assert vision.get_image_backend() == "pil"
    try:
        vision.set_image_backend("cv2")
        img, label = D.DatasetFolder(S("folder"))[0]
        assert isinstance(img, np.ndarray) and img.shape == (16, 16, 3) and label == 0
        assert isinstance(D.MNIST(*MNIST_FILES)[0][0], np.ndarray)
        np.testing.assert_array_equal(vision.image_load(S("folder/circle/circle_0.png")), img)
    finally:
        vision.set_image_backend("pil")
    assert vision.image_load(S("folder/circle/circle_0.png")).size == (16, 16)
    with pytest.raises(ValueError, match="'pil' or 'cv2'"):
        vision.set_image_backend("opencv")
    with pytest.raises(ValueError, match="backend must be"):
        D.Cifar10(S("cifar-10-python.tar.gz"), backend="tf")
