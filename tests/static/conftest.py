import pytest

import padax


@pytest.fixture
def static():
    """Static mode for one test, switched off again whatever happens."""
    padax.enable_static()
    try:
        yield padax
    finally:
        padax.disable_static()
