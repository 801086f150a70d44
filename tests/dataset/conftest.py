import pytest

from tensorjit.dataset import config


@pytest.fixture(autouse=True)
def keep_dataset_settings():
    """Tests that set the dataset seed or prefetch size leave them as they found them."""
    saved = dict(config._SETTINGS)
    yield
    config._SETTINGS.clear()
    config._SETTINGS.update(saved)
