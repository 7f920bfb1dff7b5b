from collections import namedtuple

import torch
from torch.nn.utils.rnn import pad_sequence

Batch = namedtuple("Batch", ["src", "trg", "src_mask", "src_lens"])


def collate(pairs, src_pad=0, trg_pad=0):
    srcs = [torch.tensor(s, dtype=torch.long) for s, _ in pairs]
    trgs = [torch.tensor(t, dtype=torch.long) for _, t in pairs]
    src = pad_sequence(srcs, batch_first=True, padding_value=src_pad)
    trg = pad_sequence(trgs, batch_first=True, padding_value=trg_pad)
    src_mask = (src != src_pad).long()
    src_lens = torch.tensor([len(s) for s in srcs], dtype=torch.long)
    return Batch(src, trg, src_mask, src_lens)


def run_batch(encoder, decoder, init_hidden, batch, teacher_forcing=0.5):
    enc_out, (h, c) = encoder(batch.src, batch.src_lens)
    hidden = init_hidden(h, c)
    y = batch.trg[:, 0]
    logits = []
    for t in range(1, batch.trg.shape[1]):
        step, hidden, _ = decoder(y, hidden, enc_out, mask=batch.src_mask)
        logits.append(step)
        y = batch.trg[:, t] if torch.rand(1).item() < teacher_forcing else step.argmax(dim=-1)
    return torch.stack(logits, dim=1)
