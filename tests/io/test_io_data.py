"""padax.io datasets, samplers and collation (host side), checked against numpy and Paddle."""
import numpy as np
import pytest

import padax
from padax import io
from tests.conftest import paddle_oracle


class Squares(io.Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return np.array([i, i * i], np.float32), i

    def __len__(self):
        return self.n


class Stream(io.IterableDataset):
    def __init__(self, items):
        self.items = items

    def __iter__(self):
        return iter(self.items)


def test_tensor_compose_concat_subset():
    a, b = np.arange(12).reshape(6, 2), np.arange(6) * 10
    ds = io.TensorDataset([padax.to_tensor(a), b])
    assert len(ds) == 6 and np.array_equal(ds[4][0], a[4]) and ds[4][1] == 40
    with pytest.raises(ValueError, match=r"same first dimension.*\(6, 2\), \(5,\)"):
        io.TensorDataset([a, b[:5]])
    comp = io.ComposeDataset([ds, Squares(6)])
    assert len(comp[2]) == 4 and comp[2][3] == 2
    cat = io.ConcatDataset([Squares(3), Squares(4)])
    assert len(cat) == 7 and cat[3][1] == 0 and cat[-1][1] == 3
    with pytest.raises(IndexError):
        cat[7]
    sub = io.Subset(Squares(10), [7, 2])
    assert len(sub) == 2 and sub[0][1] == 7
    chain = io.ChainDataset([Stream([1, 2]), Stream([3])])
    assert list(chain) == [1, 2, 3]


def test_random_split_counts_match_paddle():
    paddle = paddle_oracle()
    for lengths in ([0.3, 0.3, 0.4], [0.5, 0.5], [3, 7]):
        got = io.random_split(Squares(10), lengths, generator=0)
        want = paddle.io.random_split(paddle.io.TensorDataset([paddle.arange(10)]), lengths)
        assert [len(s) for s in got] == [len(s) for s in want]
        idx = sorted(i for s in got for i in s.indices)
        assert idx == list(range(10))  # a partition
    with pytest.raises(ValueError, match="sum to 9"):
        io.random_split(Squares(10), [4, 5])


def test_samplers():
    ds = Squares(7)
    assert list(io.SequenceSampler(ds)) == list(range(7))
    r = io.RandomSampler(ds, generator=3)
    e0, e1 = list(r), list(r)
    assert sorted(e0) == list(range(7)) and e0 != e1
    r2 = io.RandomSampler(ds, generator=3)
    assert list(r2) == e0  # same seed, same order
    state = r.state_dict()
    e2 = list(r)
    r2.set_state_dict(state)
    assert list(r2) == e2  # resumed
    rep = list(io.RandomSampler(ds, replacement=True, num_samples=50, generator=1))
    assert len(rep) == 50 and set(rep) <= set(range(7))
    w = io.WeightedRandomSampler([0.0, 1.0, 3.0], num_samples=4000, generator=0)
    counts = np.bincount(list(w), minlength=3)
    assert counts[0] == 0 and abs(counts[2] / counts[1] - 3) < 0.35
    with pytest.raises(ValueError, match="positive weights"):
        io.WeightedRandomSampler([0.0, 1.0], num_samples=2, replacement=False)
    s = list(io.SubsetRandomSampler([5, 9, 11], generator=0))
    assert sorted(s) == [5, 9, 11]
    padax.seed(4)
    a = list(io.RandomSampler(ds))
    padax.seed(4)
    assert list(io.RandomSampler(ds)) == a  # global seed drives the default generator


def test_batch_sampler():
    bs = io.BatchSampler(Squares(10), batch_size=4)
    assert list(bs) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]] and len(bs) == 3
    bs = io.BatchSampler(sampler=io.SequenceSampler(Squares(10)), batch_size=4, drop_last=True)
    assert len(bs) == 2 and len(list(bs)) == 2
    with pytest.raises(ValueError, match="batch_size"):
        io.BatchSampler(Squares(3), batch_size=0)


@pytest.mark.parametrize("n,bs,nr,shuffle,drop_last", [(10, 2, 3, False, False), (23, 4, 2, True, False),
                                                       (23, 4, 3, True, True), (8, 3, 4, False, True)])
def test_distributed_batch_sampler_matches_paddle(n, bs, nr, shuffle, drop_last):
    paddle = paddle_oracle()
    pds = paddle.io.TensorDataset([paddle.arange(n)])
    for rank in range(nr):
        mine = io.DistributedBatchSampler(Squares(n), bs, num_replicas=nr, rank=rank, shuffle=shuffle,
                                          drop_last=drop_last)
        ref = paddle.io.DistributedBatchSampler(pds, bs, num_replicas=nr, rank=rank, shuffle=shuffle,
                                                drop_last=drop_last)
        for epoch in (0, 3):
            mine.set_epoch(epoch)
            ref.set_epoch(epoch)
            assert list(mine) == list(ref), (rank, epoch)
        assert len(mine) == len(ref)
    with pytest.raises(ValueError, match="rank"):
        io.DistributedBatchSampler(Squares(4), 2, num_replicas=2, rank=2)


def test_default_collate_matches_paddle():
    paddle = paddle_oracle()
    samples = [{"x": np.full((2,), i, np.float32), "y": (i, 0.5 * i), "s": f"n{i}"} for i in range(3)]
    got = io.default_collate_fn(samples)
    ref = paddle.io.dataloader.collate.default_collate_fn(samples)
    assert np.array_equal(got["x"], np.asarray(ref["x"])) and got["x"].dtype == np.asarray(ref["x"]).dtype
    assert isinstance(got["y"], list) and np.array_equal(got["y"][0], np.asarray(ref["y"][0]))
    np.testing.assert_allclose(got["y"][1], np.asarray(ref["y"][1]))
    assert got["s"] == ref["s"] == ["n0", "n1", "n2"]
    with pytest.raises(io.SampleShapeError, match=r"\['x'\].*\(3,\).*\(2,\)"):
        io.default_collate_fn([{"x": np.zeros(2)}, {"x": np.zeros(3)}])
