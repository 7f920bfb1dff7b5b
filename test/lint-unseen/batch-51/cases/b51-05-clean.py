# case: b51-05-clean
# modelled-on: Shawn-Kim96/TinyStoriesProject https://github.com/Shawn-Kim96/TinyStoriesProject/commit/01352dc7f3e219d824424400edc9a4a76315a910
# label: correct
# class: clean
# pattern: a story-infilling encoder-decoder on nn.MultiheadAttention(batch_first=True): the encoder builds key_padding_mask = (ids == pad) and passes is_causal=False; the decoder builds an additive float causal mask (triu(ones, diagonal=1) filled with -inf) and hands its self-attention attn_mask=that mask together with is_causal=True and its own padding mask, then cross-attends with the encoder's padding mask; generation runs the encoder once and re-runs the decoder over the whole growing prefix, with top-k / top-p filters that set logits to -inf
# why: correct: for nn.MultiheadAttention, is_causal=True is documented as a hint that attn_mask is the causal mask and requires attn_mask to be given, which it is (the exact upper-triangular -inf mask for the decoder's length); key_padding_mask=True marks pads to ignore, which is what (ids == pad) gives; the decoder never sees cached keys, since each step recomputes the whole prefix, so query and key lengths are equal; the -inf fills act on vocabulary logits before sampling, not on attention scores; the library scales by 1/sqrt(head width) itself
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/Shawn-Kim96/TinyStoriesProject https://github.com/Shawn-Kim96/TinyStoriesProject/commit/01352dc7f3e219d824424400edc9a4a76315a910 src/models_with_encoder.py
import torch
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads, ff_dim, dropout=0.1):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.ln_a, self.ln_f = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, ff_dim), nn.ReLU(), nn.Linear(ff_dim, dim), nn.Dropout(dropout))
        self.drop = nn.Dropout(dropout)

    def forward(self, x, pad_mask=None):
        mixed, _ = self.attn(x, x, x, key_padding_mask=pad_mask, is_causal=False)  # bidirectional
        x = self.ln_a(x + self.drop(mixed))
        return self.ln_f(x + self.drop(self.ff(x)))


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads, ff_dim, dropout=0.1):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.cross_attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.ln_s, self.ln_c, self.ln_f = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, ff_dim), nn.ReLU(), nn.Linear(ff_dim, dim), nn.Dropout(dropout))
        self.drop = nn.Dropout(dropout)

    def forward(self, y, memory, future_mask=None, pad_mask=None, memory_pad_mask=None):
        mixed, _ = self.self_attn(y, y, y, attn_mask=future_mask, key_padding_mask=pad_mask, is_causal=True)
        y = self.ln_s(y + self.drop(mixed))
        looked, _ = self.cross_attn(query=y, key=memory, value=memory, key_padding_mask=memory_pad_mask)
        y = self.ln_c(y + self.drop(looked))
        return self.ln_f(y + self.drop(self.ff(y)))


class Stack(nn.Module):
    def __init__(self, layer_cls, vocab, dim, depth, heads, ff_dim, max_len, dropout, pad_id):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(layer_cls(dim, heads, ff_dim, dropout) for _ in range(depth))
        self.drop = nn.Dropout(dropout)
        self.pad_id = pad_id

    def embed(self, ids):
        where = torch.arange(ids.shape[1], device=ids.device)[None, :]
        return self.drop(self.tok(ids) + self.pos(where))

    def pads(self, ids):
        return ids == self.pad_id if self.pad_id is not None else None


class InfillModel(nn.Module):
    def __init__(self, vocab, dim=512, enc_depth=3, dec_depth=3, heads=8, ff_dim=2048, max_len=512, dropout=0.1, pad_id=0, bos_id=None, eos_id=None):
        super().__init__()
        self.enc = Stack(EncoderLayer, vocab, dim, enc_depth, heads, ff_dim, max_len, dropout, pad_id)
        self.dec = Stack(DecoderLayer, vocab, dim, dec_depth, heads, ff_dim, max_len, dropout, pad_id)
        self.out = nn.Linear(dim, vocab)
        self.bos_id, self.eos_id = bos_id, eos_id

    @staticmethod
    def future_mask(n, device):
        upper = torch.triu(torch.ones(n, n, device=device), diagonal=1)
        return upper.masked_fill(upper == 1, float("-inf"))

    def encode(self, src):
        h = self.enc.embed(src)
        for layer in self.enc.layers:
            h = layer(h, pad_mask=self.enc.pads(src))
        return h

    def decode(self, tgt, memory, memory_pads):
        future = self.future_mask(tgt.shape[1], tgt.device)
        h = self.dec.embed(tgt)
        for layer in self.dec.layers:
            h = layer(h, memory, future_mask=future, pad_mask=self.dec.pads(tgt), memory_pad_mask=memory_pads)
        return self.out(h)

    def forward(self, src, tgt):
        return self.decode(tgt, self.encode(src), self.enc.pads(src))

    @torch.no_grad()
    def infill(self, src, max_new=200, temperature=1.0, top_k=50, top_p=0.9):
        self.eval()
        memory, memory_pads = self.encode(src), self.enc.pads(src)
        tgt = torch.full((src.shape[0], 1), self.bos_id or 0, dtype=torch.long, device=src.device)
        for _ in range(max_new):
            logits = self.decode(tgt, memory, memory_pads)[:, -1, :] / temperature
            if top_k > 0:
                kth = torch.topk(logits, top_k)[0][..., -1, None]
                logits[logits < kth] = float("-inf")
            if top_p < 1.0:
                ordered, order = torch.sort(logits, descending=True)
                past = torch.cumsum(torch.softmax(ordered, dim=-1), dim=-1) > top_p
                past[..., 1:] = past[..., :-1].clone()
                past[..., 0] = False
                logits[0, order[past]] = float("-inf")
            nxt = torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1)
            if nxt.item() == self.eos_id:
                break
            tgt = torch.cat([tgt, nxt], dim=1)
        return tgt[0, 1:].tolist()
