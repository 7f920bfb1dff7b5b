# case: b5-21-mask
# modelled-on: AkiRusProd/numpy-transformer https://github.com/AkiRusProd/numpy-transformer/commit/f0dd5ec96f9d97f9d542a75c238df8f1ce267433
# label: buggy
# class: real-bug
# pattern: a transformer written in NumPy only: the model builds the source mask as (x != pad)[:, None, :] and the target mask as that padding mask & a subsequent mask from get_sub_mask; the multi-head attention in another module fills the scores with -1e20 where mask == 0 (the masks are meant as 1 = visible) before its own softmax over the last axis
# why: get_sub_mask returns np.triu(ones, k=1), which is 1 at the future positions, so `&` keeps only the future and `mask == 0` hides the current and past tokens: every decoder query attends to the tokens after it; commit f0dd5ec ("fixed get_trg_pad_mask bug") adds np.logical_not to the subsequent mask
# source: https://github.com/AkiRusProd/numpy-transformer https://github.com/AkiRusProd/numpy-transformer/commit/f0dd5ec96f9d97f9d542a75c238df8f1ce267433 transformer/transformer.py
import numpy as np

from attention import NumpyMultiHead


class NumpySeq2Seq:
    def __init__(self, d_model=256, heads=8, pad_idx=0):
        self.pad_idx = pad_idx
        self.enc_self = NumpyMultiHead(d_model, heads, seed=1)
        self.dec_self = NumpyMultiHead(d_model, heads, seed=2)
        self.dec_cross = NumpyMultiHead(d_model, heads, seed=3)

    def get_pad_mask(self, x):
        # (batch, seq_len) -> (batch, 1, seq_len), 1 at real tokens
        return (x != self.pad_idx).astype(int)[:, np.newaxis, :]

    def get_sub_mask(self, x):
        seq_len = x.shape[1]
        return np.triu(np.ones((seq_len, seq_len)), k=1).astype(int)

    def forward(self, src, trg, src_emb, trg_emb):
        src_mask = self.get_pad_mask(src)
        # (batch, trg_len, trg_len)
        trg_mask = self.get_pad_mask(trg) & self.get_sub_mask(trg)
        memory, _ = self.enc_self.forward(src_emb, src_emb, src_emb, src_mask)
        y, _ = self.dec_self.forward(trg_emb, trg_emb, trg_emb, trg_mask)
        y, attn = self.dec_cross.forward(y, memory, memory, src_mask)
        return y, attn
