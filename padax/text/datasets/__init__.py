"""`padax.text.datasets`: Paddle's text datasets, read from their standard distribution files.

padax does not download: pass the file (data_file=...) or put it in the cache directory,
$PADAX_DATA_HOME or ~/.cache/padax/dataset/<name>/ (as padax.vision.datasets); a missing file is an
error naming it and its download address. Samples are tuples of numpy arrays, as Paddle's.
"""
from padax.text.datasets.conll05 import Conll05st
from padax.text.datasets.imdb import Imdb
from padax.text.datasets.imikolov import Imikolov
from padax.text.datasets.movielens import Movielens
from padax.text.datasets.uci_housing import UCIHousing
from padax.text.datasets.wmt14 import WMT14
from padax.text.datasets.wmt16 import WMT16

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16"]
