import torch
from torch.nn.utils.rnn import pack_sequence, pad_packed_sequence

from ctcasr.settings import cfg


def collate_fn(batch, tokenizer):
    feats, texts = zip(*batch)
    packed = pack_sequence([f for f in feats], enforce_sorted=False)
    padded, lengths = pad_packed_sequence(packed, batch_first=True)  # (B, T, F), (B,)
    encoded, text_lengths = [], []
    for t in texts:
        ids = tokenizer.encode(t)
        encoded.extend(ids)
        text_lengths.append(len(ids))
    # lengths after the 4x downsampling front end, the time axis the attention sees
    out_lengths = torch.ceil(lengths.float() / cfg.downsample).int()
    return {
        "features": padded,
        "feature_lengths": out_lengths,
        "transcripts": torch.tensor(encoded),
        "transcript_lengths": torch.tensor(text_lengths),
    }
