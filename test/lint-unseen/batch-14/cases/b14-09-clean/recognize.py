import pickle

import numpy as np
import torch

from models.bilstm import SignLanguageBiLSTM

MODEL_PATH = "models/lstm_best.pth"
CONFIG_PATH = "models/lstm_config.pkl"
FEAT_DIM = 179  # landmarks + body orientation + finger extension scores
MIN_FRAMES = 12
CONF_THRESHOLD = 0.40


def load_model(device: str = "cpu") -> SignLanguageBiLSTM:
    with open(CONFIG_PATH, "rb") as f:
        cfg = pickle.load(f)
    model = SignLanguageBiLSTM(FEAT_DIM, cfg["num_classes"], cfg.get("hidden_dim", 64), cfg.get("num_layers", 1))
    model.load_state_dict(torch.load(MODEL_PATH, map_location=device))
    return model.eval()


@torch.no_grad()
def classify(model: SignLanguageBiLSTM, frames: list[np.ndarray]):
    if len(frames) < MIN_FRAMES:
        return None
    clip = torch.tensor(np.stack(frames), dtype=torch.float32).unsqueeze(0)  # (1, frames, FEAT_DIM)
    probs = torch.softmax(model(clip), dim=-1)[0]
    conf, idx = probs.max(dim=0)
    return (int(idx), float(conf)) if conf >= CONF_THRESHOLD else None
