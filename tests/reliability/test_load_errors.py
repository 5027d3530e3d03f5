"""Every failure while reading a saved file is padax's LoadError naming the file as damaged or foreign."""
import io
import json
import zipfile

import numpy as np
import pytest

import padax
from padax.serialization import LoadError
from padax.static import InputSpec


@pytest.fixture
def good(tmp_path):
    path = tmp_path / "good.pdparams"
    padax.save({"w": np.arange(6.0, dtype="float32"), "n": 3, "t": padax.ones([2])}, str(path))
    return path


def _rewrite_member(src, dst, name, edit):
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w") as out:
        for n in z.namelist():
            d = z.read(n)
            if n == name:
                js = json.loads(np.load(io.BytesIO(d)).tobytes())
                edit(js)
                b = io.BytesIO()
                np.save(b, np.frombuffer(json.dumps(js).encode(), np.uint8))
                d = b.getvalue()
            if edit is None and n == name:
                continue
            out.writestr(n, d)


def _cases(good, tmp_path):
    data = good.read_bytes()
    flipped = bytearray(data)
    flipped[len(flipped) // 2] ^= 0xFF
    files = {
        "corrupt": bytes(flipped), "truncated": data[: len(data) // 2], "text": b"hello world\n", "empty": b"",
    }
    for name, content in files.items():
        (tmp_path / f"{name}.pdparams").write_bytes(content)
    np.save(tmp_path / "plain.npy", np.ones(3))
    (tmp_path / "plain.npy").rename(tmp_path / "plain.pdparams")

    def bad_index(js):
        js["tree"]["dict"][0][1]["array"] = 7

    def bad_shape(js):
        js["arrays"][0]["shape"] = [1000]
    _rewrite_member(good, tmp_path / "edited.pdparams", "tree.npy", bad_index)
    _rewrite_member(good, tmp_path / "reshaped.pdparams", "tree.npy", bad_shape)
    with zipfile.ZipFile(good) as z, zipfile.ZipFile(tmp_path / "missing.pdparams", "w") as out:
        for n in z.namelist():
            if n != "a0.npy":
                out.writestr(n, z.read(n))
    return ["corrupt", "truncated", "text", "empty", "plain", "edited", "reshaped", "missing"]


def test_damaged_and_foreign_files_raise_load_error(good, tmp_path):
    for name in _cases(good, tmp_path):
        path = tmp_path / f"{name}.pdparams"
        with pytest.raises(LoadError) as e:
            padax.load(str(path))
        msg = str(e.value)
        assert str(path.name) in msg and ("damaged" in msg or "not a padax file" in msg or "empty" in msg
                                          or "not a readable padax file" in msg), (name, msg)
        assert "allow_pickle" not in msg and "context manager" not in msg, (name, msg)
    with pytest.raises(LoadError, match="does not exist"):
        padax.load(str(tmp_path / "nope.pdparams"))
    with pytest.raises(LoadError, match="is a folder"):
        padax.load(str(tmp_path))


def test_saved_program_whose_manifest_disagrees_fails_at_load(tmp_path):
    w = padax.ones([3, 2])
    prefix = str(tmp_path / "model")
    padax.jit.save(lambda x: padax.matmul(x, w), prefix, input_spec=[InputSpec([4, 3], "float32")])
    assert padax.jit.load(prefix)(padax.ones([4, 3])).shape == (4, 2)

    def wrong_shape(js):
        js["inputs"][0]["shape"] = [5, 3]
    _rewrite_member(prefix + ".padax", tmp_path / "bad.padax", "manifest.npy", wrong_shape)
    with pytest.raises(LoadError, match=r"program's inputs are .*tensor<4x3xf32>.* description says .*tensor<5x3xf32>"):
        padax.jit.load(str(tmp_path / "bad"))

    def garbage(js):
        js["inputs"] = [{"shape": "oops"}]
    _rewrite_member(prefix + ".padax", tmp_path / "bad2.padax", "manifest.npy", garbage)
    with pytest.raises(LoadError, match="damaged"):
        padax.jit.load(str(tmp_path / "bad2"))
