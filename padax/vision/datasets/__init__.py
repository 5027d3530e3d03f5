"""`padax.vision.datasets`: Paddle's vision datasets, read from their standard distribution files.

padax does not download: pass the file (image_path/label_path/data_file/...) or put it in the
cache directory, $PADAX_DATA_HOME or ~/.cache/padax/dataset/<name>/ (`data_home()`); a missing
file is an error naming it and its download address. Small samples in each format ship with
padax (`sample_path(...)`, under padax/data/vision_samples) so the readers work offline.
"""
from padax.vision.datasets._files import SAMPLES_DIR, data_home, sample_path  # noqa: F401
from padax.vision.datasets.cifar import Cifar10, Cifar100  # noqa: F401
from padax.vision.datasets.flowers import Flowers  # noqa: F401
from padax.vision.datasets.folder import DatasetFolder, ImageFolder  # noqa: F401
from padax.vision.datasets.mnist import MNIST, FashionMNIST  # noqa: F401
from padax.vision.datasets.voc2012 import VOC2012  # noqa: F401

__all__ = ["Cifar10", "Cifar100", "DatasetFolder", "FashionMNIST", "Flowers", "ImageFolder", "MNIST", "VOC2012",
           "data_home", "sample_path"]
