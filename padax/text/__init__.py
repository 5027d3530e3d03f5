"""`padax.text`: Paddle's text library (paddle.text): Viterbi decoding and the text datasets."""
from padax.text import datasets
from padax.text.datasets import WMT14, WMT16, Conll05st, Imdb, Imikolov, Movielens, UCIHousing
from padax.text.viterbi_decode import ViterbiDecoder, viterbi_decode

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "ViterbiDecoder", "WMT14", "WMT16",
           "datasets", "viterbi_decode"]
