"""A save killed mid-way leaves the previous file loadable and no temporary behind after the next save."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np

import padax

WRITER = textwrap.dedent('''
    import sys, numpy as np, padax
    path = sys.argv[1]
    big = {"w": np.random.default_rng(int(sys.argv[2])).standard_normal((2000, 2000)).astype("float32")}
    print("READY", flush=True)
    while True:
        padax.save(big, path)
''')


def test_kill9_during_save_keeps_previous_file_and_cleans_temporaries(tmp_path):
    path = str(tmp_path / "ckpt.pdparams")
    padax.save({"w": np.arange(6.0, dtype="float32")}, path)
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    for round_ in range(4):
        proc = subprocess.Popen([sys.executable, str(script), path, str(round_)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "READY"
        time.sleep(0.3 + 0.2 * round_)  # somewhere inside a save
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        loaded = padax.load(path)  # always a whole file: the old one or a complete new one
        assert loaded["w"].shape in ((6,), (2000, 2000))
    padax.save({"w": np.ones(3, "float32")}, path)  # the next save removes the dead writers' temporaries
    assert sorted(os.listdir(tmp_path)) == ["ckpt.pdparams", "writer.py"]
    np.testing.assert_array_equal(np.asarray(padax.load(path)["w"]), np.ones(3, "float32"))


def test_temporaries_of_live_writers_and_other_targets_are_kept(tmp_path):
    path = str(tmp_path / "a.pdparams")
    live = tmp_path / f".a.pdparams.{os.getppid()}.xyz.tmp"   # a live process (our parent) is writing
    other = tmp_path / f".b.pdparams.999999999.xyz.tmp"        # another target's temporary
    dead = tmp_path / f".a.pdparams.999999999.xyz.tmp"         # a dead writer of this target
    for f in (live, other, dead):
        f.write_bytes(b"partial")
    padax.save({"w": np.zeros(2, "float32")}, path)
    assert live.exists() and other.exists() and not dead.exists()
