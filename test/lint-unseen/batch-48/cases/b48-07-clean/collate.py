import torch
from torch.nn.utils import rnn

PAD_ID = 0
IGNORE = -100
LOOKBACK = 5          # a decoder position sees itself and the previous LOOKBACK tokens


def collate_rows(rows):
    seqs = [torch.tensor(r["tokens"]) for r in rows]
    tokens = rnn.pad_sequence(seqs, batch_first=True, padding_value=PAD_ID)
    b, n = tokens.shape

    keep = torch.ones(b, n, dtype=torch.bool)             # True on real tokens
    last = torch.empty(b, dtype=torch.long)
    band = torch.full((b, n, n), float("-inf"))           # additive, (query, key)
    for key in range(n):
        band[:, key:key + LOOKBACK + 1, key] = 0.0         # queries key..key+LOOKBACK may see this key
    for i, seq in enumerate(seqs):
        length = len(seq)
        keep[i, length:] = False
        last[i] = length - 1
        band[i, length:, 0] = 0.0                          # padded queries still see one key: no empty row

    labels = torch.cat([tokens[:, 1:], torch.full((b, 1), IGNORE)], dim=1)
    labels[~keep] = IGNORE
    return tokens, labels, torch.stack([torch.arange(b), last]), keep, band
