# case: b6-34-mask
# modelled-on: MarvelDL/numpy-transformer https://github.com/MarvelDL/numpy-transformer/commit/88003d72ba917feb9bc36b454bd217657ed0045a
# label: buggy
# class: real-bug
# pattern: a NumPy encoder-decoder transformer (forward pass only): a masks module builds ADDITIVE masks (create_look_ahead_mask returns (1 - tril(ones)) * -1e9, i.e. 0 where allowed and -1e9 where blocked; create_padding_mask returns (seq == pad) * -1e9); the decoder combines them, repeats them per head and hands them to the multi-head module, whose scaled_dot_product_attention treats the mask as a keep mask, np.where(mask == 0, -1e9, scores)
# why: buggy: the masks are 0 at the allowed positions, so mask == 0 selects exactly the positions that should be kept and overwrites them with -1e9, while the blocked positions (-1e9 in the mask) keep their scores: each decoder query attends only to the future (and to padding) and hides its past and itself; the attention needs scores + mask, or the masks must be 0/1 keep masks. No fix was found; the label rests on the masks module's own names (allowed / blocked) and the attention's comment (masked positions set to -1e9)
# source: https://github.com/MarvelDL/numpy-transformer https://github.com/MarvelDL/numpy-transformer/commit/88003d72ba917feb9bc36b454bd217657ed0045a attention/scaled_dot_product.py
import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None):
    # Q, K, V: (batch * heads, seq, d_k)
    d_k = Q.shape[-1]
    scores = np.matmul(Q, K.transpose(0, 2, 1))  # raw attention scores (Q K^T)
    scores = scores / np.sqrt(d_k)
    # Apply mask (set masked positions to -1e9 so that softmax ~ 0)
    if mask is not None:
        scores = np.where(mask == 0, -1e9, scores)  # expect: ATT002
    attention_weights = softmax(scores, axis=-1)  # across the keys
    return np.matmul(attention_weights, V), attention_weights
