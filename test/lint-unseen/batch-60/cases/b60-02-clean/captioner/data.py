import pickle

import torch
from torch.utils.data import Dataset

SOS, EOS, PAD = 1, 2, 0


class CachedFeatureCaptions(Dataset):
    """Pre-extracted CNN features with one tokenised caption each (a random one when augmenting)."""

    def __init__(self, feature_file, caption_file, vocab, augment=False):
        blob = torch.load(feature_file, weights_only=False)
        self.features, self.names = blob["features"], blob["image_names"]
        with open(caption_file, "rb") as fh:
            self.captions = pickle.load(fh)
        self.vocab, self.augment = vocab, augment

    def __len__(self):
        return len(self.features)

    def __getitem__(self, i):
        options = self.captions.get(self.names[i], [[]])
        pick = torch.randint(len(options), (1,)).item() if self.augment else 0
        ids = [SOS] + self.vocab.numericalize(options[pick]) + [EOS]
        return self.features[i], torch.tensor(ids, dtype=torch.long)


def pad_batch(batch):
    feats, caps = zip(*batch)
    longest = max(len(c) for c in caps)
    out = torch.full((len(caps), longest), PAD, dtype=torch.long)  # right padding with 0
    for row, cap in enumerate(caps):
        out[row, : len(cap)] = cap
    return torch.stack(feats), out
