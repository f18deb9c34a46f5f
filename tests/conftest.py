import pytest

from adjudicator.loader import load_scenario


@pytest.fixture(scope="session")
def scenario():
    return load_scenario()
