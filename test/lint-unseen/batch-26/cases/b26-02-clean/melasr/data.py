import torch
from torch.utils.data import Dataset


def causal_mask(size):
    above = torch.triu(torch.ones((1, size, size)), diagonal=1).type(torch.int)
    return above == 0


class SpeechDataset(Dataset):
    """Log-mel frames padded with zeros to max_frames; transcripts padded with pad_id."""

    def __init__(self, items, featurize, tokenize, max_frames, max_tokens, pad_id, sos_id, eos_id):
        self.items, self.featurize, self.tokenize = items, featurize, tokenize
        self.max_frames, self.max_tokens = max_frames, max_tokens
        self.pad_id, self.sos_id, self.eos_id = pad_id, sos_id, eos_id

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        audio, text = self.items[i]
        frames = self.featurize(audio)  # (time, n_mels)
        n = min(frames.size(0), self.max_frames)
        frames = frames[: self.max_frames]
        if n < self.max_frames:
            frames = torch.cat([frames, torch.zeros(self.max_frames - n, frames.size(1))], dim=0)
        # 1 on real frames, 0 on the zero padding
        frame_mask = torch.zeros(1, 1, self.max_frames)
        frame_mask[:, :, :n] = 1
        frame_mask = frame_mask.int()

        ids = self.tokenize(text)[: self.max_tokens - 1]
        pad = [self.pad_id] * (self.max_tokens - 1 - len(ids))
        dec_in = torch.tensor([self.sos_id] + ids + pad, dtype=torch.int64)
        label = torch.tensor(ids + [self.eos_id] + pad, dtype=torch.int64)
        return {
            "frames": frames,
            "frame_mask": frame_mask,  # (1, 1, max_frames)
            "dec_in": dec_in,
            "dec_mask": (dec_in != self.pad_id).unsqueeze(0).int() & causal_mask(dec_in.size(0)),
            "label": label,
        }
