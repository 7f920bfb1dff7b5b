# case: t30w-03-clean
# modelled-on: QuanHoangNgoc/Speech-Transformer-Scripts- https://github.com/QuanHoangNgoc/Speech-Transformer-Scripts-/commit/91bb0754a2b5e6f66d17d059bf3fcfd3766c8a64
# label: correct
# class: clean
# pattern: a pre-norm Speech Transformer for ASR: a convolutional front end in another module returns features and their lengths after 4x subsampling; the model builds keep masks (1 = real) from lengths with arange < lengths as int, src_mask (B, 1, 1, S) for the encoder self-attention and the decoder cross-attention, tgt_mask = pad keep mask & tril(ones).bool() for the decoder self-attention; the shared attention fills scores.masked_fill(mask == 0, -1e9); greedy decoding re-runs the decoder over the whole prefix each step (no cache) with a fresh square mask
# why: correct: every mask is a keep mask (1 or True where attending is allowed), and the fill is applied where the mask == 0, i.e. on padded keys and future keys; tril keeps the diagonal, so no row is empty, and the cross-attention mask depends only on the encoder lengths, broadcast over the decoder queries; -1e9 in float32 sends the masked weights to zero; without a cache the square lookahead mask matches queries and keys
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/QuanHoangNgoc/Speech-Transformer-Scripts- https://github.com/QuanHoangNgoc/Speech-Transformer-Scripts-/commit/91bb0754a2b5e6f66d17d059bf3fcfd3766c8a64 speech_transformer.py
import math

import torch
from torch import nn

from asr.subsample import VGGFrontEnd


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.d_k = d_model // num_heads
        self.h = num_heads
        self.w_q, self.w_k, self.w_v, self.w_o = (nn.Linear(d_model, d_model) for _ in range(4))
        self.dropout = nn.Dropout(dropout)

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.h, self.d_k).transpose(1, 2)

    def forward(self, q, k, v, mask=None):
        q, k, v = self.split(self.w_q(q)), self.split(self.w_k(k)), self.split(self.w_v(v))
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        probs = self.dropout(torch.softmax(scores, dim=-1))
        out = torch.matmul(probs, v).transpose(1, 2).contiguous()
        return self.w_o(out.view(out.size(0), out.size(1), -1))


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, num_heads: int, d_ff: int) -> None:
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, num_heads)
        self.cross_attn = MultiHeadAttention(d_model, num_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.n1, self.n2, self.n3 = nn.LayerNorm(d_model), nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x, memory, src_mask, tgt_mask):
        h = self.n1(x)
        x = x + self.self_attn(h, h, h, tgt_mask)
        x = x + self.cross_attn(self.n2(x), memory, memory, src_mask)
        return x + self.ff(self.n3(x))


class SpeechTransformer(nn.Module):
    def __init__(self, n_mels: int, vocab: int, d_model: int = 256, heads: int = 4, layers: int = 6) -> None:
        super().__init__()
        self.front = VGGFrontEnd(n_mels)
        self.proj = nn.Linear(self.front.out_dim, d_model)
        self.encoder = nn.ModuleList([nn.ModuleDict({"norm": nn.LayerNorm(d_model),
                                                     "attn": MultiHeadAttention(d_model, heads)})
                                      for _ in range(layers)])
        self.embed = nn.Embedding(vocab, d_model)
        self.decoder = nn.ModuleList([DecoderLayer(d_model, heads, 4 * d_model) for _ in range(layers)])
        self.fc = nn.Linear(d_model, vocab)

    @staticmethod
    def keep_mask(lengths: torch.Tensor, max_len: int) -> torch.Tensor:
        return (torch.arange(max_len, device=lengths.device)[None, :] < lengths[:, None]).int()

    def masks(self, src_lens, tgt_lens, src_len, tgt_len):
        src_mask = self.keep_mask(src_lens, src_len)[:, None, None, :]          # (B, 1, 1, S)
        tgt_pad = self.keep_mask(tgt_lens, tgt_len)[:, None, None, :]           # (B, 1, 1, T)
        lookahead = torch.tril(torch.ones(tgt_len, tgt_len, device=src_lens.device)).bool()
        return src_mask, tgt_pad & lookahead[None, None]                        # (B, 1, T, T)

    def encode(self, feats, feat_lens):
        x, lens = self.front(feats, feat_lens)
        x = self.proj(x)
        src_mask = self.keep_mask(lens, x.size(1))[:, None, None, :]
        for layer in self.encoder:
            h = layer["norm"](x)
            x = x + layer["attn"](h, h, h, src_mask)
        return x, lens

    def decode(self, ys, memory, src_lens, tgt_lens):
        src_mask, tgt_mask = self.masks(src_lens, tgt_lens, memory.size(1), ys.size(1))
        y = self.embed(ys)
        for layer in self.decoder:
            y = layer(y, memory, src_mask, tgt_mask)
        return self.fc(y)

    def forward(self, feats, feat_lens, tgt_in, tgt_lens):
        memory, src_lens = self.encode(feats, feat_lens)
        return self.decode(tgt_in, memory, src_lens, tgt_lens)


@torch.no_grad()
def greedy_decode(model: SpeechTransformer, feats, feat_lens, sos_id: int, eos_id: int, max_len: int):
    memory, src_lens = model.encode(feats, feat_lens)
    ys = torch.full((feats.size(0), 1), sos_id, dtype=torch.long, device=feats.device)
    done = torch.zeros(feats.size(0), dtype=torch.bool, device=feats.device)
    for _ in range(max_len):
        lens = torch.full((ys.size(0),), ys.size(1), device=ys.device)
        logits = model.decode(ys, memory, src_lens, lens)[:, -1]  # whole prefix, no cache
        nxt = logits.argmax(-1, keepdim=True)
        ys = torch.cat([ys, nxt], dim=1)
        done |= nxt.squeeze(1) == eos_id
        if done.all():
            break
    return ys
