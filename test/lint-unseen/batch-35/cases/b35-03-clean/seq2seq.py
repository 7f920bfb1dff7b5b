# case: b35-03-clean
# modelled-on: nawdeepbijarniya51-pixel/transformer-from-scratch-numpy https://github.com/nawdeepbijarniya51-pixel/transformer-from-scratch-numpy/commit/92748470b35bd51b71006ca70499ac90a5aee921
# label: correct
# class: clean
# pattern: an encoder-decoder Transformer written in NumPy only, with hand-written backward passes (a small chat / translation model trained on JSON pairs): attention.py splits heads with reshape + transpose(0, 2, 1, 3), scores q @ k.transpose(0, 1, 3, 2) / sqrt(d_k), blocks with np.where(mask == 0, -1e9, scores) and a max-shifted softmax over axis -1; the masks are 1 = attend: np.tril(ones) for the causal part multiplied by the decoder's 1/0 real-token mask, and the encoder's 1/0 real-token mask broadcast as (batch, 1, 1, keys) for the encoder and the cross attention
# why: correct: the batch masks are 1 on real tokens (the training loop uses the same decoder mask to weight the loss), so mask == 0 selects exactly the padded keys and the future positions; the product of the lower triangle and the key mask keeps a key only when both allow it; -1e9 is safe in float64/float32 NumPy; the transpose (0, 1, 3, 2) swaps the last two axes of the (batch, heads, tokens, head_dim) keys; the scale is the per-head width, and the backward divides by the same sqrt(d_k)
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/nawdeepbijarniya51-pixel/transformer-from-scratch-numpy https://github.com/nawdeepbijarniya51-pixel/transformer-from-scratch-numpy/commit/92748470b35bd51b71006ca70499ac90a5aee921 Transformer.py (with MultiHeadAttention.py)
import numpy as np

from attention import MultiHeadAttention, decoder_self_mask, key_padding


def sinusoid_table(max_len, d_model):
    pos = np.arange(max_len)[:, None]
    i = np.arange(d_model)[None, :]
    angles = pos / np.power(10000, (2 * (i // 2)) / d_model)
    angles[:, 0::2] = np.sin(angles[:, 0::2])
    angles[:, 1::2] = np.cos(angles[:, 1::2])
    return angles


class TinySeq2Seq:
    def __init__(self, vocab_size, d_model=32, n_heads=4, max_len=50, seed=42):
        rng = np.random.default_rng(seed)
        self.embed = rng.normal(0.0, 0.02, size=(vocab_size, d_model))
        self.positions = sinusoid_table(max_len, d_model)
        self.enc_self = MultiHeadAttention(d_model, n_heads, seed)
        self.dec_self = MultiHeadAttention(d_model, n_heads, seed + 10)
        self.dec_cross = MultiHeadAttention(d_model, n_heads, seed + 20)
        self.out = rng.normal(0.0, 0.02, size=(d_model, vocab_size))

    def forward(self, src_ids, tgt_ids, src_real, tgt_real):
        """src_real / tgt_real: (batch, tokens), 1 on real tokens, 0 on padding."""
        src = self.embed[src_ids] + self.positions[: src_ids.shape[1]]
        tgt = self.embed[tgt_ids] + self.positions[: tgt_ids.shape[1]]

        src_mask = key_padding(src_real)
        tgt_mask = decoder_self_mask(tgt_ids.shape[1], tgt_real)

        memory = src + self.enc_self.forward(src, src, src, mask=src_mask)
        h = tgt + self.dec_self.forward(tgt, tgt, tgt, mask=tgt_mask)
        h = h + self.dec_cross.forward(h, memory, memory, mask=src_mask)
        return h @ self.out
