# case: b4-06-clean
# modelled-on: enhuiz/transformer-pytorch https://github.com/enhuiz/transformer-pytorch/commit/dbaeaf394360823d6d13f91868a4e3890e2cc401
# label: correct
# class: clean
# pattern: a translation transformer in a small package: masking.py builds a length mask (zeros, then 1 up to each length, `> 0`) and a no-peek mask (ones().tril_(0) `> 0`), both True where attention is allowed; the model combines them with `&` for the decoder and passes them through a multi-head wrapper (which adds a head axis) to a dot-product attention that fills `mask == 0` with -np.inf before a softmax over the last axis
# why: correct: both masks are keep masks and the attention hides the positions where they are 0; during greedy decoding the no-peek mask is rebuilt for the current length
# looks-like: ATT002, ATT007
# source: https://github.com/enhuiz/transformer-pytorch https://github.com/enhuiz/transformer-pytorch/commit/dbaeaf394360823d6d13f91868a4e3890e2cc401 torchnmt/networks/transformer.py
import torch
import torch.nn as nn

from .layers import HeadsAttention
from .masking import length_mask, no_peek_mask


class DecoderLayer(nn.Module):
    def __init__(self, heads, dim):
        super().__init__()
        self.self_attn = HeadsAttention(heads, dim)
        self.cross_attn = HeadsAttention(heads, dim)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, y, mem, mem_mask, y_mask):
        y = self.norm1(y + self.self_attn(y, y, y, y_mask))
        return self.norm2(y + self.cross_attn(y, mem, mem, mem_mask))


class Translator(nn.Module):
    def __init__(self, encoder, layers, vocab, dim):
        super().__init__()
        self.encoder = encoder
        self.layers = nn.ModuleList(layers)
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def decode(self, tgt, mem, mem_mask, tgt_mask):
        y = self.embed(tgt)
        for layer in self.layers:
            y = layer(y, mem, mem_mask, tgt_mask)
        return self.head(y)

    def forward(self, src, src_len, tgt, tgt_len):
        src_mask = length_mask(src_len).to(src.device)  # (bs, 1, ls)
        mem = self.encoder(src, src_mask)
        tgt_mask = (length_mask(tgt_len) & no_peek_mask(tgt_len)).to(tgt.device)  # (bs, lt, lt)
        return self.decode(tgt, mem, src_mask, tgt_mask)

    @torch.no_grad()
    def greedy(self, mem, mem_mask, bos, max_len):
        running = torch.full((len(mem), 1), bos, dtype=torch.long, device=mem.device)
        for n in range(1, max_len):
            step_mask = no_peek_mask([n]).to(mem.device)
            logits = self.decode(running, mem, mem_mask, step_mask)
            nxt = logits[:, -1].argmax(dim=-1)
            running = torch.cat([running, nxt[:, None]], dim=-1)
        return running
