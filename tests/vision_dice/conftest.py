"""Shared fixtures: one rendered mounted setup, its SAMPLES folder and the enrolled model."""

from __future__ import annotations

import pytest

from farmbox.vision.dice.enroll import enroll_folder
from farmbox.vision.dice.model import DiceModel
from farmbox.vision.dice.reader import DiceReader
from farmbox.vision.render.dice import Setup, write_samples

SETUP_SEED = 4242  # tests only; the benchmark uses other seeds


@pytest.fixture(scope="session")
def setup() -> Setup:
    return Setup.from_seed(SETUP_SEED, table_kind="wood")


@pytest.fixture(scope="session")
def samples(tmp_path_factory, setup):
    return write_samples(tmp_path_factory.mktemp("dice") / "SAMPLES", setup=setup, per_face=2,
                         seed=SETUP_SEED)


@pytest.fixture(scope="session")
def model_path(samples, tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "dice.npz"
    enroll_folder(samples).save(path)
    return path


@pytest.fixture(scope="session")
def model(model_path) -> DiceModel:
    return DiceModel.load(model_path)


@pytest.fixture(scope="session")
def reader(model) -> DiceReader:
    return DiceReader(model)


@pytest.fixture(scope="session")
def sticker_setup() -> Setup:
    """A box whose dice carry thin line drawings on cream stickers, on a cloth table."""
    return Setup.from_seed(SETUP_SEED + 1, table_kind="cloth", art="sticker")


@pytest.fixture(scope="session")
def sticker_reader(tmp_path_factory, sticker_setup) -> DiceReader:
    folder = write_samples(tmp_path_factory.mktemp("sticker") / "SAMPLES", setup=sticker_setup,
                           per_face=2, seed=SETUP_SEED + 1)
    return DiceReader(enroll_folder(folder))
