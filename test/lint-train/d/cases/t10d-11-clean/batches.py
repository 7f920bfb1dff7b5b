# case: t10d-11-clean
# modelled-on: pizzalist/transformer-numpy https://github.com/pizzalist/transformer-numpy/commit/53815ce55a31845d8e366322f50bb499ae1bc46c
# label: correct
# class: clean
# pattern: a NumPy port of a PyTorch translation transformer: the batch builder makes keep masks (tokens != pad, shape (1, 1, seq) for the encoder; the same AND a lower-triangular causal mask for the decoder), the multi-head class splits heads with reshape + transpose(0, 2, 1, 3), and the attention module in another file transposes the keys with transpose(0, 1, 3, 2), fills mask == 0 with -1e9 through np.where and calls a softmax helper whose axis defaults to None, with dim=-1
# why: correct: the masks are keep masks (1 on real tokens and on the past), so mask == 0 selects padding and future positions; the helper is called with dim=-1, the key axis (its default of None would normalise over the whole array, but it is never used); transpose(0, 1, 3, 2) swaps the last two axes of the 4-D keys; what a naive linter could misread: ATT001 (a softmax helper whose default axis is None), ATT002 (keep masks built in another module and compared with 0), ATT005 (a four-axis transpose of the keys), ATT007 (-1e9)
# looks-like: ATT001, ATT002, ATT005, ATT007
# source: https://github.com/pizzalist/transformer-numpy https://github.com/pizzalist/transformer-numpy/commit/53815ce55a31845d8e366322f50bb499ae1bc46c numpy/attention/single.py
import numpy as np

from attention.multi_head import MultiHeadedAttention


def causal_mask(size):
    # 1 on and below the diagonal: what each position may see
    return np.tril(np.ones((1, size, size), dtype=np.int64))


def make_masks(encoder_input, decoder_input, pad):
    encoder_mask = (encoder_input != pad).astype(np.int64)[None, None, :]  # (1, 1, seq)
    decoder_mask = (decoder_input != pad).astype(np.int64)[None, None, :] & causal_mask(decoder_input.shape[0])
    return encoder_mask, decoder_mask


if __name__ == "__main__":
    enc = np.array([5, 8, 3, 0, 0])
    dec = np.array([1, 4, 0, 0, 0])
    enc_mask, dec_mask = make_masks(enc, dec, pad=0)
    mha = MultiHeadedAttention(h=4, d_model=16)
    x = np.random.randn(1, 5, 16)
    print(mha.forward(x, x, x, mask=enc_mask).shape, mha.forward(x, x, x, mask=dec_mask).shape)
