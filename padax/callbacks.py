"""`padax.callbacks`: Paddle's training callbacks for `padax.Model.fit` (see padax/hapi/callbacks.py)."""
from padax.hapi.callbacks import (
    Callback,
    EarlyStopping,
    LRScheduler,
    ModelCheckpoint,
    ProgBarLogger,
    ReduceLROnPlateau,
    VisualDL,
)

__all__ = ["Callback", "EarlyStopping", "LRScheduler", "ModelCheckpoint", "ProgBarLogger", "ReduceLROnPlateau",
           "VisualDL"]
