"""The global random generator gives distinct draws when used from several threads."""
import threading

import numpy as np

import padax


def test_global_rng_draws_are_unique_across_threads():
    padax.seed(7)
    padax.rand([1])  # compile the draw once, so the threads race on the key rather than on compilation
    draws: list = []
    lock = threading.Lock()

    def worker():
        local = [float(padax.rand([1])[0]) for _ in range(50)]
        with lock:
            draws.extend(local)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(draws) == 200 and len(set(draws)) == 200  # no two threads got the same subkey
    padax.seed(7)
    padax.rand([1])
    sequential = [float(padax.rand([1])[0]) for _ in range(200)]
    np.testing.assert_array_equal(np.sort(draws), np.sort(sequential))  # the same 200 subkeys, in some order
