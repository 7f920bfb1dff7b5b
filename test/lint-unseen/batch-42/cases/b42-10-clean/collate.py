# case: b42-10-clean
# modelled-on: AlainDeLong2k/Attention-Is-All-You-Build https://github.com/AlainDeLong2k/Attention-Is-All-You-Build/commit/fc54bda5efa126ab7d4d9824b3115c172fee332b
# label: correct
# class: clean
# pattern: encoder-decoder translation Transformer (a folder: the data collator that pads a batch and builds every mask, the mask helpers, and the attention layer that applies them): padding masks are (ids != pad)[:, None, None, :] (True = keep), the look-ahead mask is a boolean lower triangle (1, 1, T, T), the decoder mask is their AND; the attention layer divides q.k^T by sqrt(d_k) and fills mask == 0 with -inf before a softmax over the last axis; the same source mask serves encoder self-attention and decoder cross-attention
# why: correct: every mask is True where attention is allowed, and the layer fills the False (== 0) entries with -inf, so padding keys and future positions get no weight; the source mask has shape (B, 1, 1, T_src) and broadcasts over queries of any length, so it fits cross-attention too; each decoder row keeps its own position (the first token is never padding), so no row is all -inf; scale 1/sqrt(d_k) with d_k the head width
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/AlainDeLong2k/Attention-Is-All-You-Build https://github.com/AlainDeLong2k/Attention-Is-All-You-Build/commit/fc54bda5efa126ab7d4d9824b3115c172fee332b src/dataset.py
import torch
from torch.nn.utils.rnn import pad_sequence

from masks import future_mask, keep_mask


class PairCollator:
    """Pads a list of {"src", "tgt"} id lists and returns tensors plus the attention masks."""

    def __init__(self, pad_id: int):
        self.pad_id = pad_id

    def _pad(self, seqs):
        return pad_sequence([torch.tensor(s) for s in seqs], batch_first=True, padding_value=self.pad_id)

    def __call__(self, items):
        src = self._pad([it["src"] for it in items])
        dec_in = self._pad([it["tgt"][:-1] for it in items])  # starts with BOS
        gold = self._pad([it["tgt"][1:] for it in items])  # ends with EOS
        t = dec_in.shape[1]

        src_keep = keep_mask(src, self.pad_id)  # (B, 1, 1, S)
        tgt_keep = keep_mask(dec_in, self.pad_id) & future_mask(t)  # (B, 1, T, T)
        return {
            "src": src,
            "dec_in": dec_in,
            "gold": gold,
            "src_mask": src_keep,
            "tgt_mask": tgt_keep,
        }
