"""padax.hapi tests leave no DataLoader worker process behind either (the io tests' check)."""
from tests.io.conftest import no_worker_survives  # noqa: F401
