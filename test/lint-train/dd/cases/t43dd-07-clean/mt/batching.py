import torch

from .layers import DecoderLayer


def decoder_inputs(tgt_ids, pad_id):
    keep = (tgt_ids != pad_id).long()
    dec_in = tgt_ids[:, :-1].contiguous()
    dec_keep = keep[:, :-1].contiguous()
    labels = tgt_ids[:, 1:].contiguous()
    labels = labels * dec_keep + (1 - dec_keep) * pad_id
    return dec_in, dec_keep, labels


def run_decoder(layers, emb, tgt_ids, memory, src_ids, pad_id):
    dec_in, dec_keep, labels = decoder_inputs(tgt_ids, pad_id)
    src_keep = (src_ids != pad_id)
    x = emb(dec_in)
    for layer in layers:
        x = layer(x, dec_keep.bool(), memory, src_keep)
    return x, labels


@torch.no_grad()
def greedy(layers, emb, head, memory, src_ids, bos_id, pad_id, steps=32):
    ys = torch.full((src_ids.shape[0], 1), bos_id, dtype=torch.long, device=src_ids.device)
    src_keep = (src_ids != pad_id)
    for _ in range(steps):
        x = emb(ys)
        for layer in layers:
            x = layer(x, torch.ones_like(ys, dtype=torch.bool), memory, src_keep)
        nxt = head(x[:, -1:, :]).argmax(dim=-1)
        ys = torch.cat([ys, nxt], dim=1)
    return ys


def build(dim=64, heads=4, hidden=128, n=2):
    return torch.nn.ModuleList(DecoderLayer(dim, heads, hidden, 0.1) for _ in range(n))
