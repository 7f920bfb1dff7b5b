"""Run settings for the heartbeat reconstruction model."""

import os

SETTINGS = {
    "run_name": "beat-autoencoder",
    "epochs": 100,
    "patience": 5,
    "batch_size": 16,
    "lr": 1e-4,
    "beat_len": 140,
    "width": 64,
    "heads": 16,
    "ff_width": 16,
    "depth": 2,
    "data_dir": "data",
}


def data_file(name: str) -> str:
    return os.path.join(SETTINGS["data_dir"], name)
