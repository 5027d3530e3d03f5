"""Write padax/data/vision_samples: tiny datasets in each standard format padax.vision.datasets reads.

    python scripts/make_vision_samples.py

The images are made here, deterministically: the MNIST and CIFAR samples are the UCI
handwritten digits bundled in padax/data (see its README for source and license), enlarged and
(for CIFAR) coloured; the Flowers, VOC and folder samples are drawn shapes. Archives are written
with fixed timestamps so that rerunning the script gives the same bytes.
"""
from __future__ import annotations

import gzip
import io
import os
import pickle
import shutil
import struct
import tarfile

import numpy as np
import scipy.io
from PIL import Image, ImageDraw

from padax.data import load_digits

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "padax", "data", "vision_samples")
RNG = np.random.default_rng(2024)
DIGITS, DIGIT_LABELS = load_digits()


def digit(i: int, size: int, box: int) -> np.ndarray:
    """Digit i as a uint8 [size, size] image, the digit enlarged to box x box and centred."""
    small = Image.fromarray((DIGITS[i].astype(np.float64) * 255 / 16).astype(np.uint8))
    big = np.asarray(small.resize((box, box), Image.Resampling.BILINEAR))
    out = np.zeros((size, size), np.uint8)
    o = (size - box) // 2
    out[o:o + box, o:o + box] = big
    return out


def gz(data: bytes) -> bytes:
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as f:
        f.write(data)
    return buf.getvalue()


def write(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def tar_bytes(members: dict[str, bytes], compress: bool) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    return gz(raw.getvalue()) if compress else raw.getvalue()


def encode(img: np.ndarray | Image.Image, fmt: str, **kw) -> bytes:
    buf = io.BytesIO()
    (img if isinstance(img, Image.Image) else Image.fromarray(img)).save(buf, fmt, **kw)
    return buf.getvalue()


def mnist() -> None:
    for split, idx in (("train", range(0, 100)), ("t10k", range(100, 200))):  # Paddle reads 100 at a time
        images = np.stack([digit(i, 28, 20) for i in idx])
        labels = DIGIT_LABELS[list(idx)].astype(np.uint8)
        write(f"{OUT}/mnist/{split}-images-idx3-ubyte.gz",
              gz(struct.pack(">IIII", 2051, len(images), 28, 28) + images.tobytes()))
        write(f"{OUT}/mnist/{split}-labels-idx1-ubyte.gz", gz(struct.pack(">II", 2049, len(labels)) + labels.tobytes()))


def coloured_digit(i: int) -> np.ndarray:
    """Digit i as a 32x32 RGB image: a coloured digit on a coloured background (CHW, uint8)."""
    d = digit(i, 32, 24).astype(np.float64) / 255
    fg, bg = RNG.integers(0, 256, 3), RNG.integers(0, 256, 3)
    img = d[None] * fg[:, None, None] + (1 - d[None]) * bg[:, None, None]
    return img.round().astype(np.uint8)


def cifar_batch(idx: range, label_keys: dict, name: bytes) -> bytes:
    data = np.stack([coloured_digit(i).reshape(-1) for i in idx])
    batch = {b"batch_label": name, b"data": data, b"filenames": [b"sample_%d.png" % i for i in idx]}
    batch.update({k: [int(f(i)) for i in idx] for k, f in label_keys.items()})
    return pickle.dumps(batch, protocol=2)


def cifar() -> None:
    ten = {b"labels": lambda i: DIGIT_LABELS[i]}
    members = {f"cifar-10-batches-py/data_batch_{b + 1}": cifar_batch(range(200 + 25 * b, 225 + 25 * b), ten,
                                                                       b"training batch %d of 2" % (b + 1))
               for b in range(2)}
    members["cifar-10-batches-py/test_batch"] = cifar_batch(range(250, 270), ten, b"testing batch 1 of 1")
    members["cifar-10-batches-py/batches.meta"] = pickle.dumps(
        {b"label_names": [b"digit%d" % k for k in range(10)], b"num_cases_per_batch": 25, b"num_vis": 3072}, 2)
    write(f"{OUT}/cifar-10-python.tar.gz", tar_bytes(members, compress=True))
    hundred = {b"fine_labels": lambda i: DIGIT_LABELS[i] * 10 + i % 10, b"coarse_labels": lambda i: DIGIT_LABELS[i]}
    members = {"cifar-100-python/train": cifar_batch(range(300, 340), hundred, b"training batch 1 of 1"),
               "cifar-100-python/test": cifar_batch(range(340, 360), hundred, b"testing batch 1 of 1"),
               "cifar-100-python/meta": pickle.dumps({b"fine_label_names": [b"f%d" % k for k in range(100)],
                                                      b"coarse_label_names": [b"c%d" % k for k in range(10)]}, 2)}
    write(f"{OUT}/cifar-100-python.tar.gz", tar_bytes(members, compress=True))


def flower(k: int, size: tuple[int, int]) -> Image.Image:
    """A drawn flower: petals of one colour around a centre of another, on green."""
    img = Image.new("RGB", size, (40 + 10 * (k % 5), 120, 50))
    draw = ImageDraw.Draw(img)
    cx, cy, r = size[0] // 2, size[1] // 2, min(size) // 4
    petal = tuple(int(v) for v in RNG.integers(60, 256, 3))
    for a in np.linspace(0, 2 * np.pi, 5 + k % 4, endpoint=False):
        px, py = cx + r * np.cos(a), cy + r * np.sin(a)
        draw.ellipse([px - r * 0.7, py - r * 0.7, px + r * 0.7, py + r * 0.7], fill=petal)
    draw.ellipse([cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5], fill=(230, 200, 40))
    return img


def flowers() -> None:
    n = 24
    members = {f"jpg/image_{i:05}.jpg": encode(flower(i, (40, 32)), "JPEG", quality=80) for i in range(1, n + 1)}
    write(f"{OUT}/flowers/102flowers.tgz", tar_bytes(members, compress=True))
    labels = np.array([[(i % 5) + 1 for i in range(1, n + 1)]], np.uint8)
    scipy.io.savemat(f"{OUT}/flowers/imagelabels.mat", {"labels": labels})
    ids = np.arange(1, n + 1, dtype=np.uint16)
    scipy.io.savemat(f"{OUT}/flowers/setid.mat", {"trnid": ids[None, 0::3], "valid": ids[None, 1::3],
                                                  "tstid": ids[None, 2::3]})


def voc_palette() -> list[int]:
    """VOC's colour map: class c gets the bits of c spread over R, G, B."""
    pal = []
    for c in range(256):
        r = g = b = 0
        for j in range(8):
            r |= ((c >> 0) & 1) << (7 - j)
            g |= ((c >> 1) & 1) << (7 - j)
            b |= ((c >> 2) & 1) << (7 - j)
            c >>= 3
        pal += [r, g, b]
    return pal


def voc() -> None:
    root = "VOCdevkit/VOC2012/"
    ids = [f"2012_{i:06}" for i in range(9)]
    members = {}
    for k, name in enumerate(ids):
        img = Image.new("RGB", (40, 30), tuple(int(v) for v in RNG.integers(0, 256, 3)))
        mask = Image.new("P", (40, 30), 0)
        mask.putpalette(voc_palette())
        x0, y0 = int(RNG.integers(0, 20)), int(RNG.integers(0, 14))
        box = [x0, y0, x0 + 16, y0 + 12]
        colour = tuple(int(v) for v in RNG.integers(0, 256, 3))
        ImageDraw.Draw(img).rectangle(box, fill=colour)
        ImageDraw.Draw(mask).rectangle(box, fill=1 + k % 20, outline=255)
        members[f"{root}JPEGImages/{name}.jpg"] = encode(img, "JPEG", quality=85)
        members[f"{root}SegmentationClass/{name}.png"] = encode(mask, "PNG")
    for split, names in (("trainval", ids), ("train", ids[:6]), ("val", ids[6:])):
        members[f"{root}ImageSets/Segmentation/{split}.txt"] = "".join(n + "\n" for n in names).encode()
    write(f"{OUT}/VOCtrainval_11-May-2012.tar", tar_bytes(members, compress=False))


def folder() -> None:
    for c, (cls, colour) in enumerate((("circle", (200, 40, 40)), ("square", (40, 40, 200)))):
        for i in range(4):
            img = Image.new("RGB", (16, 16), (255, 255, 255))
            draw = ImageDraw.Draw(img)
            box = [2 + i, 2 + i, 13 - i // 2, 13 - i // 2]
            (draw.ellipse if c == 0 else draw.rectangle)(box, fill=colour)
            write(f"{OUT}/folder/{cls}/{cls}_{i}.png", encode(img, "PNG"))
    write(f"{OUT}/folder/square/notes.txt", b"not an image: DatasetFolder skips it\n")


def main() -> None:
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    mnist()
    cifar()
    flowers()
    voc()
    folder()
    total = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(OUT) for f in fs)
    print(f"wrote {OUT} ({total / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
