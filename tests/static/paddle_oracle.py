"""Runs the cases of models.py in Paddle (the test oracle): `python paddle_oracle.py IN.npz OUT.npz`.

A subprocess, since paddle.enable_static is global. IN holds `cases` (JSON: a list of configs, each with a
`key` prefixing its arrays: initial weights and batches); OUT gets the results under the same prefixes.
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from models import train  # noqa: E402  (run as a script: its folder is on the path)


class _Prefixed:
    def __init__(self, data, prefix):
        self.data, self.prefix = data, prefix

    def __getitem__(self, k):
        return self.data[self.prefix + k]


def main(inp: str, out: str) -> None:
    import paddle
    paddle.enable_static()
    data = np.load(inp)
    results = {}
    for cfg in json.loads(bytes(data["cases"]).decode()):
        res = train(paddle, cfg, _Prefixed(data, cfg["key"]))
        results.update({cfg["key"] + k: v for k, v in res.items()})
    np.savez(out, **results)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
