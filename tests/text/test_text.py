"""padax.text against Paddle (paddle.text): viterbi_decode / ViterbiDecoder (both tag modes, ragged lengths,
jit, vmap), and every dataset read from tiny synthetic files in its distribution format, sample by sample."""
import gzip
import io
import os
import tarfile
import zipfile

import numpy as np
import pytest

import padax
from padax.text import ViterbiDecoder, viterbi_decode
from tests.conftest import paddle_oracle

RNG = np.random.default_rng(11)


@pytest.mark.parametrize("include", [True, False])
def test_viterbi_matches_paddle(include):
    paddle = paddle_oracle()
    for b, t, n, lens in ((3, 5, 4, [5, 3, 1]), (2, 6, 3, [2, 4]), (4, 3, 5, [3, 3, 3, 3]), (2, 1, 2, [1, 1])):
        pot = RNG.standard_normal((b, t, n)).astype(np.float32)
        trans = RNG.standard_normal((n, n)).astype(np.float32)
        lengths = np.array(lens, np.int64)
        ws, wp = paddle.text.viterbi_decode(paddle.to_tensor(pot), paddle.to_tensor(trans),
                                            paddle.to_tensor(lengths), include)
        s, p = viterbi_decode(pot, trans, lengths, include)
        np.testing.assert_allclose(np.asarray(s), ws.numpy(), rtol=1e-5, atol=1e-5)
        assert p.dtype == padax.int64 and p.shape == tuple(wp.shape)
        np.testing.assert_array_equal(np.asarray(p), wp.numpy())
        s2, p2 = ViterbiDecoder(trans, include)(pot, lengths)
        np.testing.assert_array_equal(np.asarray(p2), wp.numpy())


def test_viterbi_jit_vmap_and_brute_force():
    pot = RNG.standard_normal((2, 4, 3))
    trans = RNG.standard_normal((3, 3))
    lengths = np.array([4, 2])
    s, p = viterbi_decode(pot, trans, lengths, False)
    for i in range(2):   # brute force over all paths of each sequence
        L = lengths[i]
        paths = np.array(np.meshgrid(*[range(3)] * L, indexing="ij")).reshape(L, -1).T
        scores = [pot[i, np.arange(L), q].sum() + trans[q[:-1], q[1:]].sum() for q in paths]
        assert np.isclose(float(np.asarray(s)[i]), max(scores))
        np.testing.assert_array_equal(np.asarray(p)[i, :L], paths[int(np.argmax(scores))])
    sj, pj = padax.jit(viterbi_decode, static_argnums=3)(pot, trans, lengths, True)
    sr, pr = viterbi_decode(pot, trans, lengths, True)
    np.testing.assert_allclose(np.asarray(sj), np.asarray(sr))
    np.testing.assert_array_equal(np.asarray(pj), np.asarray(pr))
    sv, pv = padax.vmap(lambda a, n: viterbi_decode(a[None], trans, n[None]))(pot, lengths)
    np.testing.assert_allclose(np.asarray(sv)[:, 0], np.asarray(sr))
    np.testing.assert_array_equal(np.asarray(pv)[:, 0], np.asarray(pr))


def _tar(path, files):
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return str(path)


def _same(ours, theirs):
    assert len(ours) == len(theirs)
    for i in range(len(ours)):
        a, b = ours[i], theirs[i]
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert np.asarray(x).dtype.kind == np.asarray(y).dtype.kind
            np.testing.assert_array_equal(np.asarray(x), np.asarray(y))


def test_imdb(tmp_path):
    paddle = paddle_oracle()
    docs = {"aclImdb/train/pos/0_9.txt": b"A great, great movie!\n", "aclImdb/train/neg/1_2.txt": b"Bad movie. Bad.",
            "aclImdb/test/pos/2_8.txt": b"great fun", "aclImdb/test/neg/3_1.txt": b"bad bad movie",
            "aclImdb/train/pos/4_7.txt": b"Movie, movie; GREAT", "aclImdb/README": b"ignored"}
    path = _tar(tmp_path / "imdb.tar.gz", docs)
    for mode in ("train", "test"):
        ours = padax.text.Imdb(data_file=path, mode=mode, cutoff=1)
        theirs = paddle.text.Imdb(data_file=path, mode=mode, cutoff=1)
        assert ours.word_idx == theirs.word_idx
        _same(ours, theirs)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        padax.text.Imdb(data_file=str(tmp_path / "nope.tar.gz"))


def test_imikolov(tmp_path):
    paddle = paddle_oracle()
    train = b" the cat sat <unk>\n the dog sat\n a cat ran\n"
    files = {"./simple-examples/data/ptb.train.txt": train, "./simple-examples/data/ptb.valid.txt": b" the end\n",
             "./simple-examples/data/ptb.test.txt": b" the cat ran far\n"}
    path = _tar(tmp_path / "simple-examples.tgz", files)
    for kw in (dict(data_type="NGRAM", window_size=3), dict(data_type="SEQ"), dict(data_type="SEQ", window_size=4),
               dict(data_type="NGRAM", window_size=2, mode="test")):
        ours = padax.text.Imikolov(data_file=path, min_word_freq=0, **kw)
        theirs = paddle.text.Imikolov(data_file=path, min_word_freq=0, **kw)
        assert ours.word_idx == theirs.word_idx
        _same(ours, theirs)


def test_uci_housing(tmp_path):
    paddle = paddle_oracle()
    path = str(tmp_path / "housing.data")
    np.savetxt(path, RNG.random((10, 14)) * 100, fmt="%.4f")
    for mode in ("train", "test"):
        ours, theirs = padax.text.UCIHousing(data_file=path, mode=mode), paddle.text.UCIHousing(data_file=path,
                                                                                                  mode=mode)
        assert len(ours) == (8 if mode == "train" else 2)
        _same(ours, theirs)
    x, y = ours[0]
    assert x.dtype == np.float32 and x.shape == (13,) and y.shape == (1,)


def _movielens_zip(path):
    movies = "1::Toy Story (1995)::Animation|Comedy\n2::Heat (1995)::Action|Crime|Thriller\n3::Story Time (1990)::Comedy\n"
    users = "1::F::1::10::48067\n2::M::56::16::70072\n"
    ratings = "".join(f"{u}::{m}::{r}::978300760\n" for u, m, r in
                      [(1, 1, 5), (1, 2, 3), (2, 3, 4), (2, 1, 1), (1, 3, 2), (2, 2, 5), (1, 1, 4), (2, 3, 3)])
    with zipfile.ZipFile(path, "w") as z:
        for name, text in (("movies.dat", movies), ("users.dat", users), ("ratings.dat", ratings)):
            z.writestr("ml-1m/" + name, text.encode("latin"))
    return str(path)


def test_movielens(tmp_path):
    paddle = paddle_oracle()
    path = _movielens_zip(tmp_path / "ml-1m.zip")
    for mode in ("train", "test"):
        ours = padax.text.Movielens(data_file=path, mode=mode, test_ratio=0.4, rand_seed=3)
        theirs = paddle.text.Movielens(data_file=path, mode=mode, test_ratio=0.4, rand_seed=3)
        assert len(ours) == len(theirs) > 0
        cat_o = {v: k for k, v in ours.categories_dict.items()}
        cat_t = {v: k for k, v in theirs.categories_dict.items()}
        word_o = {v: k for k, v in ours.movie_title_dict.items()}
        word_t = {v: k for k, v in theirs.movie_title_dict.items()}
        for i in range(len(ours)):
            a, b = ours[i], theirs[i]
            assert len(a) == len(b) == 8
            for k in (0, 1, 2, 3, 4, 7):
                np.testing.assert_array_equal(a[k], b[k])
            assert [cat_o[c] for c in a[5]] == [cat_t[c] for c in b[5]]
            assert [word_o[w] for w in a[6]] == [word_t[w] for w in b[6]]
    assert list(ours.categories_dict) == sorted(ours.categories_dict)


def _wmt14_tar(path):
    src_dict = b"<s>\n<e>\n<unk>\nhello\nworld\n"
    trg_dict = b"<s>\n<e>\n<unk>\nbonjour\nmonde\n"
    train = b"hello world\tbonjour monde\nhello there\tbonjour\nbad line\n"
    return _tar(path, {"wmt14/src.dict": src_dict, "wmt14/trg.dict": trg_dict, "wmt14/train/train": train,
                       "wmt14/test/test": b"world\tmonde monde\n", "wmt14/gen/gen": b"hello\tbonjour\n"})


def test_wmt14(tmp_path):
    paddle = paddle_oracle()
    path = _wmt14_tar(tmp_path / "wmt14.tgz")
    for mode in ("train", "test", "gen"):
        for size in (5, 4):
            ours = padax.text.WMT14(data_file=path, mode=mode, dict_size=size)
            theirs = paddle.text.WMT14(data_file=path, mode=mode, dict_size=size)
            _same(ours, theirs)
            assert ours.get_dict() == theirs.get_dict()
            assert ours.get_dict(reverse=True) == theirs.get_dict(reverse=True)
    assert len(padax.text.WMT14(data_file=path).get_dict()[0]) == 5   # dict_size=-1: every line


def test_wmt16(tmp_path, monkeypatch):
    paddle = paddle_oracle()
    train = b"a man runs\tein mann rennt\na dog runs\tein hund rennt\nthe man\tder mann\n"
    path = _tar(tmp_path / "wmt16.tar.gz", {"wmt16/train": train, "wmt16/test": b"a cat runs\teine katze rennt\n",
                                            "wmt16/val": b"the dog\tder hund\n"})
    os.makedirs(tmp_path / "home" / "wmt16")
    monkeypatch.setattr(paddle.dataset.common, "DATA_HOME", str(tmp_path / "home"))
    for mode in ("train", "test", "val"):
        for lang in ("en", "de"):
            ours = padax.text.WMT16(data_file=path, mode=mode, src_dict_size=6, trg_dict_size=7, lang=lang)
            theirs = paddle.text.WMT16(data_file=path, mode=mode, src_dict_size=6, trg_dict_size=7, lang=lang)
            assert ours.src_dict == theirs.src_dict and len(ours) == len(theirs)
            for i in range(len(ours)):
                np.testing.assert_array_equal(ours[i][0], theirs[i][0])
                # Paddle builds the target dictionary from the source column; padax from the target's
                trg_words = ["<s>"] + [w for w in ours._pairs(tarfile.open(path), mode)[i][1 if lang == "en" else 0]
                                       .split()]
                rev = ours.get_dict("de" if lang == "en" else "en", reverse=True)
                assert [rev[j] if rev[j] in trg_words else "<unk>" for j in ours[i][1]] == \
                       [w if w in ours.trg_dict else "<unk>" for w in trg_words]
    en = padax.text.WMT16(data_file=path, lang="en")
    assert list(en.trg_dict) == ["<s>", "<e>", "<unk>", "ein", "mann", "rennt", "hund", "der"]


def test_conll05st(tmp_path):
    paddle = paddle_oracle()
    words = "The\ncat\nsat\ndown\n\nDogs\nbark\nloudly\nat\nnight\n\n"
    props = ("-\t(A0*\t*\n-\t*)\t(A1*\nsit\t(V*)\t*)\ndown\t(AM-DIR*)\t(V*)\n\n"
             "-\t(A0*)\nbark\t(V*)\n-\t(AM-MNR*)\n-\t(AM-TMP*\n-\t*)\n\n")
    data = _tar(tmp_path / "conll05st-tests.tar.gz", {
        "conll05st-release/test.wsj/words/test.wsj.words.gz": gzip.compress(words.encode()),
        "conll05st-release/test.wsj/props/test.wsj.props.gz": gzip.compress(props.encode())})
    files = {}
    for name, lines in (("word", ["bos", "eos", "The", "cat", "sat", "Dogs", "bark", "night"]),
                        ("verb", ["sit", "bark", "down"]),
                        ("target", ["B-A0", "I-A0", "B-A1", "I-A1", "B-V", "I-V", "B-AM-DIR", "I-AM-DIR", "B-AM-MNR",
                                    "I-AM-MNR", "B-AM-TMP", "I-AM-TMP", "O"])):
        files[name] = str(tmp_path / f"{name}.txt")
        with open(files[name], "w") as f:
            f.write("\n".join(lines) + "\n")
    emb = str(tmp_path / "emb")
    open(emb, "wb").close()
    kw = dict(data_file=data, word_dict_file=files["word"], verb_dict_file=files["verb"],
              target_dict_file=files["target"], emb_file=emb)
    ours, theirs = padax.text.Conll05st(**kw), paddle.text.Conll05st(**kw)
    assert len(ours) == len(theirs) == 3
    lab_o = {v: k for k, v in ours.label_dict.items()}
    lab_t = {v: k for k, v in theirs.label_dict.items()}
    assert set(lab_o.values()) == set(lab_t.values())
    for i in range(3):
        a, b = ours[i], theirs[i]
        for k in range(8):
            np.testing.assert_array_equal(a[k], b[k])
        assert [lab_o[j] for j in a[8]] == [lab_t[j] for j in b[8]]
    assert ours.get_embedding() == emb and ours.get_dict()[0] == theirs.get_dict()[0]
    with pytest.raises(FileNotFoundError, match="emb_file"):
        padax.text.Conll05st(**{**kw, "emb_file": str(tmp_path / "missing")})


def test_missing_files_name_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PADAX_DATA_HOME", str(tmp_path))
    for cls, folder in ((padax.text.Imdb, "imdb"), (padax.text.UCIHousing, "uci_housing"),
                        (padax.text.WMT16, "wmt16"), (padax.text.Movielens, "movielens")):
        with pytest.raises(FileNotFoundError, match="padax does not download") as e:
            cls()
        assert os.path.join(str(tmp_path), folder) in str(e.value)
    with pytest.raises(ValueError, match="mode"):
        padax.text.WMT14(data_file=_wmt14_tar(tmp_path / "w.tgz"), mode="dev")
