# case: b54-04-clean
# modelled-on: zttt04/Transformer-Pytorch-implement https://github.com/zttt04/Transformer-Pytorch-implement/commit/e0db8e4a4432e732cef0024c0c6e61c01d928221
# label: correct
# class: clean
# pattern: an encoder-decoder translation Transformer (a folder: the settings object with d_model and n_head, the mask builder that makes (B, 1, 1, S) source keep-masks from `ids != pad` and (B, 1, T, T) target keep-masks by and-ing the padding with `np.triu(ones, k=1) == 0`, and the model whose attention module divides by torch.sqrt of a tensor holding d_model // n_head, fills `mask == 0` with -1e9 and normalises with an nn.Softmax(dim=-1) module built in __init__; the training step builds the masks and passes them down)
# why: correct: the masks are keep-masks (True = may attend): the source mask is ids != pad and the look-ahead part is triu(k=1) == 0, so `masked_fill(mask == 0, -1e9)` blanks exactly the padding and the future; the scale is 1/sqrt(d_k) with d_k = d_model // n_head of the per-head vectors (computed through a tensor); nn.Softmax(dim=-1) normalises over the keys of the (B, heads, Lq, Lk) scores; scores are float32
# looks-like: ATT001, ATT002, ATT003
# source: https://github.com/zttt04/Transformer-Pytorch-implement https://github.com/zttt04/Transformer-Pytorch-implement/commit/e0db8e4a4432e732cef0024c0c6e61c01d928221 Transformer_model.py
import torch
import torch.nn as nn

from masking import build_masks
from settings import ModelSettings


class DotProductAttention(nn.Module):
    def __init__(self, cfg: ModelSettings):
        super().__init__()
        self.d_k = cfg.d_model // cfg.n_head
        self.normalise = nn.Softmax(dim=-1)

    def forward(self, q, k, v, mask=None):
        # q, k, v: (B, heads, L, d_k); mask broadcasts to (B, heads, Lq, Lk)
        denom = torch.sqrt(torch.tensor(self.d_k, dtype=torch.float32, device=q.device))
        logits = q @ k.transpose(-2, -1) / denom
        if mask is not None:
            logits = logits.masked_fill(mask == 0, -1e9)
        return self.normalise(logits) @ v


class HeadedAttention(nn.Module):
    def __init__(self, cfg: ModelSettings):
        super().__init__()
        self.n_head = cfg.n_head
        self.d_k = cfg.d_model // cfg.n_head
        self.d_model = cfg.d_model
        self.q_lin = nn.Linear(cfg.d_model, cfg.d_model)
        self.k_lin = nn.Linear(cfg.d_model, cfg.d_model)
        self.v_lin = nn.Linear(cfg.d_model, cfg.d_model)
        self.out_lin = nn.Linear(cfg.d_model, cfg.d_model)
        self.core = DotProductAttention(cfg)
        self.drop = nn.Dropout(cfg.dropout)

    def _heads(self, x, lin):
        b = x.size(0)
        return lin(x).view(b, -1, self.n_head, self.d_k).transpose(1, 2)

    def forward(self, query, key, value, mask=None):
        b = query.size(0)
        ctx = self.core(self._heads(query, self.q_lin), self._heads(key, self.k_lin),
                        self._heads(value, self.v_lin), mask)
        ctx = ctx.transpose(1, 2).contiguous().view(b, -1, self.d_model)
        return self.drop(self.out_lin(ctx))


class DecoderLayer(nn.Module):
    def __init__(self, cfg: ModelSettings):
        super().__init__()
        self.self_attn = HeadedAttention(cfg)
        self.cross_attn = HeadedAttention(cfg)
        self.ff = nn.Sequential(nn.Linear(cfg.d_model, cfg.d_ff), nn.ReLU(), nn.Linear(cfg.d_ff, cfg.d_model))
        self.norms = nn.ModuleList([nn.LayerNorm(cfg.d_model) for _ in range(3)])

    def forward(self, y, memory, src_keep, tgt_keep):
        h = self.norms[0](y)
        y = y + self.self_attn(h, h, h, tgt_keep)
        h = self.norms[1](y)
        y = y + self.cross_attn(h, memory, memory, src_keep)
        return y + self.ff(self.norms[2](y))


def train_step(model, batch, cfg: ModelSettings, loss_fn, optimiser):
    src, tgt = batch["src"].to(cfg.device), batch["tgt"].to(cfg.device)
    src_keep, tgt_keep = build_masks(src, tgt[:, :-1], cfg.pad_id, cfg.device)
    logits = model(src, tgt[:, :-1], src_keep, tgt_keep)
    loss = loss_fn(logits.reshape(-1, logits.size(-1)), tgt[:, 1:].reshape(-1))
    optimiser.zero_grad()
    loss.backward()
    optimiser.step()
    return loss.item()
