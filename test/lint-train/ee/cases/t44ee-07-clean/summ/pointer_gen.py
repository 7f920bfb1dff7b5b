# case: t44ee-07-clean
# modelled-on: nguyenduc13475/Text-Summarization https://github.com/nguyenduc13475/Text-Summarization/commit/26dde37e91101cd572c109dfbf7d41eba477cf2f
# label: correct
# class: clean
# pattern: a pointer-generator summariser trained under CUDA autocast with a GradScaler (the base class, another file): each decoder step scores the encoder states with additive (Bahdanau) attention plus coverage, giving (batch, source) scores; the source padding mask `ids == pad` (True at padding, (batch, source)) is filled with -inf and the softmax runs over dim=1; the copy distribution reuses those weights
# why: correct: -inf is exact in float16, and the mask only hides source keys (it has no query axis: one decoder query per step), so no row is emptied unless a source is all padding, which the data never holds; True at padding is the side masked_fill must hide
# looks-like: ATT002, ATT007
# source: https://github.com/nguyenduc13475/Text-Summarization https://github.com/nguyenduc13475/Text-Summarization/commit/26dde37e91101cd572c109dfbf7d41eba477cf2f src/models/pointer_generator_network.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from summ.base import SummariserBase


class PointerGenerator(SummariserBase):
    def __init__(self, vocab, emb=128, enc_h=256, dec_h=256, attn=256, pad_id=0, start_id=1):
        super().__init__(torch.device("cuda" if torch.cuda.is_available() else "cpu"))
        self.embed = nn.Embedding(vocab, emb)
        self.decoder = nn.LSTM(emb, dec_h, batch_first=True)
        self.enc_proj = nn.Linear(2 * enc_h, attn)
        self.dec_proj = nn.Linear(dec_h, attn, bias=False)
        self.cov_proj = nn.Linear(1, attn, bias=False)
        self.v = nn.Linear(attn, 1, bias=False)
        self.out = nn.Linear(dec_h + 2 * enc_h, vocab)
        self.switch = nn.Linear(dec_h + 2 * enc_h + emb, 1)
        self.pad_id, self.start_id = pad_id, start_id
        self.setup_training_env(learning_rate=1e-3, loss_scale=1e-2)

    def step(self, tok_emb, h, c, enc_states, coverage, src_pad=None):
        _, (h, c) = self.decoder(tok_emb.unsqueeze(1), (h, c))
        e = torch.tanh(self.enc_proj(enc_states) + self.dec_proj(h[-1]).unsqueeze(1) + self.cov_proj(coverage.unsqueeze(2)))
        e = self.v(e).squeeze(2)  # (B, S)
        if src_pad is not None:
            e = e.masked_fill(src_pad, float("-inf"))
        attn = F.softmax(e, dim=1)
        ctx = torch.bmm(attn.unsqueeze(1), enc_states).squeeze(1)
        both = torch.cat([h[-1], ctx], dim=1)
        vocab_dist = F.softmax(self.out(both), dim=1)
        p_gen = torch.sigmoid(self.switch(torch.cat([both, tok_emb], dim=1))).squeeze(1)
        return vocab_dist, attn, p_gen, h, c

    def compute_loss(self, src_ids, tgt_ids, enc_states, h, c, tgt_lengths):
        B, S = src_ids.shape
        coverage = torch.zeros(B, S, device=self.device)
        tok = torch.full((B,), self.start_id, device=self.device, dtype=torch.long)
        src_pad = src_ids == self.pad_id
        nll = torch.zeros(B, device=self.device)
        cov = torch.zeros(B, device=self.device)
        for t in range(tgt_ids.shape[1]):
            vocab_dist, attn, p_gen, h, c = self.step(self.embed(tok), h, c, enc_states, coverage, src_pad)
            gold = tgt_ids[:, t]
            copy = (attn * (src_ids == gold.unsqueeze(1)).float()).sum(dim=1)
            prob = p_gen * vocab_dist.gather(1, gold.unsqueeze(1)).squeeze(1) + (1 - p_gen) * copy
            live = (t < tgt_lengths).float()
            nll = nll - torch.log(prob + 1e-9) * live
            cov = cov + torch.min(attn, coverage).sum(dim=1) * live
            coverage = coverage + attn
            tok = gold
        return {"nll": nll.mean(), "coverage": cov.mean()}
