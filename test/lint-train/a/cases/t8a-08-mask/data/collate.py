import torch

from data.audio_utils import pad_or_window


class AudioCollator:
    def __init__(self, sample_rate: int = 16000, seconds: float = 10.0):
        self.target_len = int(sample_rate * seconds)

    def __call__(self, items):
        wavs, masks = [], []
        for it in items:
            w, m = pad_or_window(it["raw_wav"], self.target_len)
            wavs.append(w)
            masks.append(m)
        return {
            "raw_wav": torch.stack(wavs),  # (B, T) float32
            "padding_mask": torch.stack(masks),  # (B, T) bool
            "label": torch.tensor([it["label"] for it in items]),
        }
