# case: t44ff-12-clean
# modelled-on: Derrors/Pointer-Generator-Network-for-QA https://github.com/Derrors/Pointer-Generator-Network-for-QA/commit/24647db9838289b7780f10b546465c617171da21
# label: correct
# class: clean
# pattern: a pointer-generator answering questions from reviews: the attention step reads its sizes and the coverage switch from a settings module, takes `softmax(e, dim=1)` of (b, l) scores, multiplies by the encoder padding mask and divides by the masked sum; the decoder mixes `p_gen * vocab_dist` with `(1 - p_gen) * attn_dist` scattered into the extended vocabulary with `scatter_add`
# why: correct: softmax, times the 0/1 keep mask, over its own sum is the softmax over the unpadded positions (re-normalised, as in See et al.), not a mask applied too late; the copy distribution scattered into the vocabulary is a probability mixture, not attention scores; dim=1 is the review-token axis of (b, l)
# looks-like: ATT001, ATT006
# source: https://github.com/Derrors/Pointer-Generator-Network-for-QA https://github.com/Derrors/Pointer-Generator-Network-for-QA/commit/24647db9838289b7780f10b546465c617171da21 src/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from . import settings as cfg


class ReviewAttention(nn.Module):
    def __init__(self):
        super().__init__()
        width = cfg.hidden_dim * 2
        if cfg.is_coverage:
            self.cov_proj = nn.Linear(1, width, bias=False)
        self.enc_proj = nn.Linear(width, width, bias=False)
        self.dec_proj = nn.Linear(width, width)
        self.score = nn.Linear(width, 1, bias=False)

    def forward(self, state, memory, mem_mask, coverage):
        b, l, h = memory.size()
        keys = self.enc_proj(memory.view(-1, h))
        query = self.dec_proj(state).unsqueeze(1).expand(b, l, h).reshape(-1, h)
        feats = keys + query
        if cfg.is_coverage:
            feats = feats + self.cov_proj(coverage.view(-1, 1))
        e = self.score(torch.tanh(feats)).view(-1, l)
        masked = F.softmax(e, dim=1) * mem_mask
        dist = masked / masked.sum(1, keepdim=True)
        context = torch.bmm(dist.unsqueeze(1), memory).squeeze(1)
        if cfg.is_coverage:
            coverage = coverage.view(-1, l) + dist
        return context, dist, coverage


class AnswerDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.emb_dim)
        self.mix_in = nn.Linear(cfg.hidden_dim * 2 + cfg.emb_dim, cfg.emb_dim)
        self.rnn = nn.LSTM(cfg.emb_dim, cfg.hidden_dim, batch_first=True)
        self.attend = ReviewAttention()
        self.gen_gate = nn.Linear(cfg.hidden_dim * 4 + cfg.emb_dim, 1)
        self.to_vocab = nn.Sequential(nn.Linear(cfg.hidden_dim * 3, cfg.hidden_dim), nn.Linear(cfg.hidden_dim, cfg.vocab_size))

    def forward(self, prev_tok, prev_state, prev_ctx, memory, mem_mask, extra_zeros, ext_ids, coverage):
        x = self.mix_in(torch.cat((prev_ctx, self.embed(prev_tok)), 1))
        out, state = self.rnn(x.unsqueeze(1), prev_state)
        h, c = state
        s_hat = torch.cat((h.view(-1, cfg.hidden_dim), c.view(-1, cfg.hidden_dim)), 1)
        ctx, dist, coverage = self.attend(s_hat, memory, mem_mask, coverage)
        p_gen = torch.sigmoid(self.gen_gate(torch.cat((ctx, s_hat, x), 1)))
        vocab = F.softmax(self.to_vocab(torch.cat((out.view(-1, cfg.hidden_dim), ctx), 1)), dim=1)
        vocab = p_gen * vocab
        copy = (1 - p_gen) * dist
        if extra_zeros is not None:
            vocab = torch.cat([vocab, extra_zeros], 1)
        return vocab.scatter_add(1, ext_ids, copy), state, ctx, dist, p_gen, coverage
