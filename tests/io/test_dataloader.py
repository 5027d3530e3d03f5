"""padax.io.DataLoader: batches in order on the device, worker processes, errors, resuming, no orphans."""
import os
import time

import numpy as np
import pytest

import padax
from padax import io


class Squares(io.Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return np.array([i, i * i], np.float32), i

    def __len__(self):
        return self.n


class Noisy(Squares):
    """Random augmentation from numpy's global generator (seeded per batch by the loader)."""

    def __getitem__(self, i):
        return np.random.uniform(size=3).astype(np.float32), i


class FailsAt(Squares):
    def __getitem__(self, i):
        if i == 5:
            raise KeyError(f"bad sample {i}")
        return super().__getitem__(i)


class UserError(Exception):
    pass


class FailsWithUserError(Squares):
    def __getitem__(self, i):
        if i == 3:
            raise UserError(f"custom failure at {i}")
        return super().__getitem__(i)


class WhoLoads(Squares):
    def __getitem__(self, i):
        info = io.get_worker_info()
        return np.int64(-1 if info is None else info.id), np.int64(os.getpid()), i


class Ragged(Squares):
    def __getitem__(self, i):
        return np.zeros(3 if i == 6 else 2, np.float32)


class Slow(Squares):
    def __getitem__(self, i):
        time.sleep(1.0)
        return np.float32(i)


class Shard(io.IterableDataset):
    """0..n-1, split between workers by get_worker_info()."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        info = io.get_worker_info()
        k, w = (0, 1) if info is None else (info.id, info.num_workers)
        return iter(np.arange(k, self.n, w, dtype=np.int64).tolist())


def record_seed(worker_id):
    np.random.seed(1000 + worker_id)


def _host(batch):
    return padax.tree_util.tree_map(np.asarray, batch)


def _alive(pids):
    alive = []
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        try:  # a zombie (exited, not yet reaped) is not alive
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(")")[-1].split()[0] == "Z":
                    continue
        except FileNotFoundError:
            continue
        alive.append(pid)
    return alive


def _gone(pids, wait_s=3.0):
    deadline = time.monotonic() + wait_s
    while _alive(pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _alive(pids)


def test_in_process_batches_on_device():
    loader = io.DataLoader(Squares(10), batch_size=4)
    batches = list(loader)
    assert len(loader) == 3 and len(batches) == 3
    x, y = batches[2]
    assert isinstance(x, padax.Tensor) and tuple(x.shape) == (2, 2) and str(y.dtype) == "int64"
    np.testing.assert_array_equal(np.asarray(x), [[8, 64], [9, 81]])
    assert len(list(io.DataLoader(Squares(10), batch_size=4, drop_last=True))) == 2
    unbatched = list(io.DataLoader(Squares(3), batch_size=None))
    assert tuple(unbatched[1][0].shape) == (2,) and int(unbatched[1][1]) == 1


def test_workers_give_the_same_batches_in_order():
    ds = Squares(23)
    ref = [_host(b) for b in io.DataLoader(ds, batch_size=3, shuffle=True, batch_sampler=None)]
    padax.seed(0)
    serial = [_host(b) for b in io.DataLoader(ds, batch_size=3, shuffle=True)]
    padax.seed(0)
    loader = io.DataLoader(ds, batch_size=3, shuffle=True, num_workers=2)
    it = iter(loader)
    parallel = [_host(b) for b in it]
    assert len(parallel) == len(serial) == len(ref) == 8
    for a, b in zip(serial, parallel):
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
    assert sorted(np.concatenate([b[1] for b in parallel]).tolist()) == list(range(23))
    assert it.worker_pids and _gone(it.worker_pids)


def test_worker_info_init_fn_and_seeding():
    loader = io.DataLoader(WhoLoads(8), batch_size=2, num_workers=2, worker_init_fn=record_seed)
    ids = [int(np.asarray(wid)[0]) for wid, _, _ in loader]
    assert ids == [0, 1, 0, 1]  # round-robin; get_worker_info() is None in the main process
    assert io.get_worker_info() is None
    # per-batch seeding: random augmentations do not depend on the number of workers
    outs = []
    for nw in (1, 2):
        loader = io.DataLoader(Noisy(6), batch_size=2, num_workers=nw)
        loader.set_state_dict({"epoch": 0, "position": 0, "batch_sampler": {}, "seed": 7})
        outs.append(np.concatenate([np.asarray(x) for x, _ in loader]))
    np.testing.assert_array_equal(outs[0], outs[1])


def test_iterable_dataset_split_by_workers():
    got = np.concatenate([np.asarray(b) for b in io.DataLoader(Shard(11), batch_size=2, num_workers=2)])
    assert sorted(got.tolist()) == list(range(11))
    got = [np.asarray(b).tolist() for b in io.DataLoader(Shard(5), batch_size=2, drop_last=True)]
    assert got == [[0, 1], [2, 3]]


def test_worker_error_surfaces_with_traceback_and_no_orphans():
    loader = io.DataLoader(FailsAt(12), batch_size=2, num_workers=2)
    it = iter(loader)
    with pytest.raises(KeyError, match="bad sample 5") as info:
        list(it)
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "DataLoader worker" in notes and "Traceback" in notes and "in __getitem__" in notes
    assert "sample index 5" in notes
    assert _gone(it.worker_pids)


def test_worker_error_of_a_user_class_is_not_rebuilt_from_the_worker():
    # the main process rebuilds only builtin and padax exception types (nothing is unpickled)
    with pytest.raises(io.WorkerError, match=r"(?s)UserError raised in DataLoader worker.*custom failure at 3"):
        list(io.DataLoader(FailsWithUserError(8), batch_size=2, num_workers=2))


def test_inconsistent_shapes_name_the_samples():
    with pytest.raises(io.SampleShapeError, match=r"sample index 6 has shape \(3,\).*sample index 4 has shape \(2,\)"):
        list(io.DataLoader(Ragged(8), batch_size=4))


def test_abandoned_iteration_and_persistent_workers_leave_no_process():
    loader = io.DataLoader(Squares(40), batch_size=2, num_workers=2)
    it = iter(loader)
    next(it)
    pids = it.worker_pids
    it.close()
    assert _gone(pids)
    loader = io.DataLoader(Squares(9), batch_size=3, num_workers=2, persistent_workers=True)
    first = [_host(b)[1].tolist() for b in loader]
    pids = loader.worker_pids
    second = [_host(b)[1].tolist() for b in loader]
    assert first == second == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert loader.worker_pids == pids and not _gone(pids, wait_s=0.1)
    del loader
    import gc
    gc.collect()
    assert _gone(pids)


def test_timeout():
    it = iter(io.DataLoader(Slow(4), batch_size=1, num_workers=1, timeout=0.2))
    with pytest.raises(TimeoutError, match="timeout=0.2"):
        next(it)
    assert _gone(it.worker_pids)


def test_resume_mid_epoch():
    padax.seed(1)
    loader = io.DataLoader(Squares(20), batch_size=3, shuffle=True)
    it = iter(loader)
    head = [_host(next(it))[1].tolist() for _ in range(3)]
    state = loader.state_dict()
    rest = [_host(b)[1].tolist() for b in it]
    nxt = [_host(b)[1].tolist() for b in loader]
    resumed = io.DataLoader(Squares(20), batch_size=3, shuffle=True)
    resumed.set_state_dict(state)
    assert [_host(b)[1].tolist() for b in resumed] == rest
    assert [_host(b)[1].tolist() for b in resumed] == nxt
    assert sorted(sum(head + rest, [])) == list(range(20))


def test_sharded_batches_and_prefetch_to_device():
    x, _ = next(iter(io.DataLoader(Squares(4), batch_size=2, places="cpu")))
    assert x.place.is_cpu_place()
    out = list(io.prefetch_to_device(({"a": np.full(2, i)} for i in range(5)), size=2))
    assert [int(np.asarray(b["a"])[0]) for b in out] == list(range(5))
    assert isinstance(out[0]["a"], padax.Tensor)


def test_bad_arguments():
    with pytest.raises(ValueError, match="num_workers"):
        io.DataLoader(Squares(3), num_workers=-1)
    with pytest.raises(ValueError, match="batch_sampler"):
        io.DataLoader(Squares(3), batch_sampler=io.BatchSampler(Squares(3)), batch_size=2)
    with pytest.raises(ValueError, match="IterableDataset"):
        io.DataLoader(Shard(3), shuffle=True)


def failing_init(worker_id):
    raise RuntimeError(f"init failed in worker {worker_id}")


def test_worker_init_fn_error_surfaces():
    with pytest.raises(RuntimeError, match="init failed in worker 0") as info:
        list(io.DataLoader(Squares(4), batch_size=2, num_workers=1, worker_init_fn=failing_init))
    assert "failing_init" in "\n".join(getattr(info.value, "__notes__", []))


_KILLED_PARENT = """
import sys, time
import numpy as np
sys.path.insert(0, {root!r})
from padax import io

class Endless(io.Dataset):
    def __getitem__(self, i):
        time.sleep(0.05)
        return np.float32(i)
    def __len__(self):
        return 10 ** 6

if __name__ == "__main__":
    it = iter(io.DataLoader(Endless(), batch_size=2, num_workers=2))
    next(it)
    print(" ".join(map(str, it.worker_pids)), flush=True)
    time.sleep(60)
"""


def test_workers_exit_when_the_main_process_is_killed(tmp_path):
    import signal
    import subprocess
    import sys
    script = tmp_path / "parent.py"
    script.write_text(_KILLED_PARENT.format(root=os.getcwd()))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 2 and not _gone(pids, wait_s=0.1)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert _gone(pids, wait_s=5.0)


class SlowBatch(Squares):
    def __getitem__(self, i):
        time.sleep(0.1)  # host work (e.g. decoding) that releases the GIL
        return np.float32(i)


def test_next_batch_loads_while_the_step_runs():
    def epoch(use_buffer_reader):
        start = time.perf_counter()
        for _ in io.DataLoader(SlowBatch(6), batch_size=1, use_buffer_reader=use_buffer_reader):
            time.sleep(0.1)  # the step
        return time.perf_counter() - start
    overlapped, serial = epoch(True), epoch(False)
    assert serial > 1.15 and overlapped < 0.95, (overlapped, serial)
