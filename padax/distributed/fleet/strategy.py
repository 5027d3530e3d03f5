"""Paddle's `fleet.DistributedStrategy`: the hybrid-parallel degrees and the sharding (ZeRO) settings."""
from __future__ import annotations

from typing import Any

HYBRID_ORDER = ("dp", "pp", "sharding", "sep", "mp")
_DEGREE_KEYS = tuple(f"{a}_degree" for a in HYBRID_ORDER)


class DistributedStrategy:
    """The settings `fleet.init` builds the device mesh from.

    `hybrid_configs = {"dp_degree": 2, "mp_degree": 2, "pp_degree": 2}`
    (assigning a dict updates the given keys; `dp_degree=-1` means "the devices
    left over"), plus `pp_configs` (`accumulate_steps` = microbatches per batch,
    `micro_batch_size` = rows per microbatch and data replica, checked when
    set, `schedule_mode` "FThenB"/"1F1B"; a PipelineLayer with virtual stages runs "VPP") and `sharding_configs`
    (`stage`: the ZeRO stage used over the 'sharding' axis, 1 by default).

    Examples:
        >>> from padax.distributed import fleet
        >>> strategy = fleet.DistributedStrategy()
        >>> strategy.hybrid_configs = {"mp_degree": 2}  # updates the keys given
        >>> cfg = strategy.hybrid_configs
        >>> cfg["dp_degree"], cfg["mp_degree"], cfg["pp_configs"]["schedule_mode"]
        (-1, 2, '1F1B')
    """

    def __init__(self) -> None:
        self._hybrid: dict[str, Any] = {"dp_degree": -1, "mp_degree": 1, "pp_degree": 1, "sharding_degree": 1,
                                        "sep_degree": 1, "order": list(HYBRID_ORDER)}
        self._pp: dict[str, Any] = {"accumulate_steps": 1, "micro_batch_size": None, "schedule_mode": "1F1B"}
        self._sharding: dict[str, Any] = {"stage": 1}

    @property
    def hybrid_configs(self) -> dict:
        return dict(self._hybrid, pp_configs=dict(self._pp), sharding_configs=dict(self._sharding))

    @hybrid_configs.setter
    def hybrid_configs(self, configs: dict) -> None:
        for key, value in dict(configs).items():
            if key == "pp_configs":
                self.pp_configs = value
            elif key == "sharding_configs":
                self.sharding_configs = value
            elif key in _DEGREE_KEYS:
                if isinstance(value, bool) or not isinstance(value, int) or (value < 1 and value != -1):
                    raise ValueError(f"DistributedStrategy.hybrid_configs: {key} must be a positive int (or -1 "
                                     f"for dp_degree), got {value!r}")
                if value == -1 and key != "dp_degree":
                    raise ValueError(f"DistributedStrategy.hybrid_configs: only dp_degree may be -1, got {key}=-1")
                self._hybrid[key] = value
            elif key == "order":
                if sorted(value) != sorted(HYBRID_ORDER):
                    raise ValueError(f"DistributedStrategy.hybrid_configs: order must be a permutation of "
                                     f"{list(HYBRID_ORDER)}, got {value!r}")
                self._hybrid["order"] = list(value)
            else:
                raise ValueError(f"DistributedStrategy.hybrid_configs: unknown key {key!r}; known: "
                                 f"{list(_DEGREE_KEYS) + ['order', 'pp_configs', 'sharding_configs']}")

    @property
    def pp_configs(self) -> dict:
        return dict(self._pp)

    @pp_configs.setter
    def pp_configs(self, configs: dict) -> None:
        for key, value in dict(configs).items():
            if key not in self._pp:
                raise ValueError(f"DistributedStrategy.pp_configs: unknown key {key!r}; known: {list(self._pp)}")
            self._pp[key] = value

    @property
    def sharding_configs(self) -> dict:
        return dict(self._sharding)

    @sharding_configs.setter
    def sharding_configs(self, configs: dict) -> None:
        for key, value in dict(configs).items():
            if key != "stage":
                continue  # Paddle's communication-tuning keys (buffer sizes, overlap) have no meaning here
            if value not in (1, 2, 3):
                raise ValueError(f"DistributedStrategy.sharding_configs: stage must be 1, 2 or 3, got {value!r}")
            self._sharding["stage"] = value

    def __repr__(self) -> str:
        degrees = ", ".join(f"{k}={self._hybrid[k]}" for k in _DEGREE_KEYS)
        return f"DistributedStrategy({degrees})"
