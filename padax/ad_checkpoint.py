"""`padax.ad_checkpoint`: rematerialisation as jax.ad_checkpoint names it.

`checkpoint` (alias `remat`), `checkpoint_name` to name a value for a
policy, `checkpoint_policies`, and `print_saved_residuals` to see what reverse
mode keeps for the backward pass.
"""
from padax.transforms.remat import (  # noqa: F401
    checkpoint,
    checkpoint_name,
    checkpoint_policies,
    print_saved_residuals,
    remat,
    saved_residuals,
)
