"""padax's tensor functions (the implementations behind the public names in `padax`), built on `padax.functional.lax`."""
