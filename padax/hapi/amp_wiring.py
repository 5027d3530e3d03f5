"""`Model.prepare(amp_configs=...)`: Paddle's validation of the settings, and the one place they reach padax.amp.

`parse_amp_configs` checks the settings as Paddle does ('O0'/'O1'/'O2' or a dict with `level`,
`custom_white_list`/`custom_black_list`, the GradScaler settings; padax adds `dtype`). `amp_plan`
turns them into what the jitted train step uses: an `auto_cast` context for the forward pass, the
O2 `decorate` of network and optimizer, and a GradScaler. When padax.amp is not importable, any
level other than O0 is refused with an error saying so (never silently trained in float32).
"""
from __future__ import annotations

import contextlib
from typing import Any, Callable

LEVELS = ("O0", "O1", "O2")
CUSTOM_LISTS = ("custom_white_list", "custom_black_list", "custom_black_varnames")
SCALER_KEYS = ("init_loss_scaling", "incr_ratio", "decr_ratio", "incr_every_n_steps", "decr_every_n_nan_or_inf",
               "use_dynamic_loss_scaling")
DTYPES = ("float16", "bfloat16")


def parse_amp_configs(amp_configs: Any) -> dict:
    """{'level', 'dtype', 'custom_lists', 'scaler'} from Paddle's `amp_configs` (None, a level string or a dict)."""
    out = {"level": "O0", "dtype": "float16", "custom_lists": {}, "scaler": {}}
    if not amp_configs:
        return out
    if isinstance(amp_configs, str):
        if amp_configs not in LEVELS:
            raise ValueError(f"Model.prepare: the level of amp_configs should be 'O0', 'O1' or 'O2', got {amp_configs!r}")
        out["level"] = amp_configs
        return out
    if not isinstance(amp_configs, dict):
        raise TypeError(f"Model.prepare: amp_configs must be None, 'O0'/'O1'/'O2' or a dict, got "
                        f"{type(amp_configs).__name__}")
    level = amp_configs.get("level", "O1")
    if level not in LEVELS:
        raise ValueError(f"Model.prepare: amp_configs['level'] should be 'O0', 'O1' or 'O2', got {level!r}")
    out["level"] = level
    if "use_pure_fp16" in amp_configs:
        raise ValueError("Model.prepare: 'use_pure_fp16' is an invalid parameter, the level of mixed precision "
                         "training only depends on 'O1' or 'O2'.")
    if "use_fp16_guard" in amp_configs:
        raise ValueError("Model.prepare: 'use_fp16_guard' is supported in static graph mode only.")
    unknown = set(amp_configs) - {"level", "dtype", *CUSTOM_LISTS, *SCALER_KEYS}
    if unknown:
        raise ValueError(f"Model.prepare: except for 'level', the keys of 'amp_configs' must be accepted by mixed "
                         f"precision APIs, but {tuple(sorted(unknown))} could not be recognized.")
    dtype = amp_configs.get("dtype", "float16")
    if dtype not in DTYPES:
        raise ValueError(f"Model.prepare: amp_configs['dtype'] must be 'float16' or 'bfloat16', got {dtype!r}")
    out["dtype"] = dtype
    out["custom_lists"] = {k: amp_configs[k] for k in CUSTOM_LISTS if k in amp_configs}
    out["scaler"] = {k: amp_configs[k] for k in SCALER_KEYS if k in amp_configs}
    return out


class AmpPlan:
    """What the train step needs: `autocast()` around the forward pass, and `scaler`, a padax.amp.GradScaler
    (None without loss scaling) used in its pure form: its state is carried in the training pytree."""

    def __init__(self, autocast: Callable[[], Any], scaler: Any):
        self.autocast, self.scaler = autocast, scaler

    def scaler_state(self) -> dict | None:
        """The loss scale and its counters (a pytree carried by the train step), None without scaling."""
        return None if self.scaler is None else self.scaler.init_state()


NO_AMP = AmpPlan(contextlib.nullcontext, None)


def amp_plan(config: dict, network: Any, optimizer: Any) -> tuple[AmpPlan, Any, Any]:
    """(plan, network, optimizer) for the parsed `config`; O2 decorates the network and optimizer.

    This is the only function that touches padax.amp."""
    if config["level"] == "O0":
        return NO_AMP, network, optimizer
    try:
        from padax import amp  # optional: without padax.amp, a Model still trains in float32
    except ImportError:
        raise RuntimeError(f"Model.prepare: amp_configs asks for mixed precision (level {config['level']}), but "
                           "padax.amp is not available in this padax; pass amp_configs=None to train in float32"
                           ) from None
    if config["level"] == "O2":
        if optimizer is None:
            network = amp.decorate(models=network, level="O2", dtype=config["dtype"])
        else:
            network, optimizer = amp.decorate(models=network, optimizers=optimizer, level="O2",
                                              dtype=config["dtype"])

    def autocast():
        return amp.auto_cast(enable=True, level=config["level"], dtype=config["dtype"], **{
            k: v for k, v in config["custom_lists"].items() if k != "custom_black_varnames"})

    # bfloat16 has float32's range: Paddle scales float16 losses only
    scaler = amp.GradScaler(**config["scaler"]) if config["dtype"] == "float16" else None
    return AmpPlan(autocast, scaler), network, optimizer
