"""Every padax primitive under its `<name>_p` name (the same objects as `padax.lax.*_p`)."""
import padax.lax as _lax

globals().update({name: obj for name, obj in vars(_lax).items() if name.endswith("_p") and not name.startswith("_")})
del _lax
