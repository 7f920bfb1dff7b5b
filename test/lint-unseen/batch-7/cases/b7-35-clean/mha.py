import numpy as np

from masks import create_look_ahead_mask, create_padding_mask
from sdpa import sdpa


class MultiHeadedAttention:
    def __init__(self, d_model=512, num_heads=8):
        self.d_model, self.num_heads = d_model, num_heads
        self.d_k = d_model // num_heads
        scale = 1.0 / np.sqrt(d_model)
        self.W_q, self.W_k, self.W_v, self.W_o = (np.random.randn(d_model, d_model) * scale for _ in range(4))

    def forward(self, Q, K, V, mask=None):
        B, Tq, _ = Q.shape
        Tk = K.shape[1]
        Qh = (Q @ self.W_q).reshape(B, Tq, self.num_heads, self.d_k).transpose(0, 2, 1, 3)
        Kh = (K @ self.W_k).reshape(B, Tk, self.num_heads, self.d_k).transpose(0, 2, 1, 3)
        Vh = (V @ self.W_v).reshape(B, Tk, self.num_heads, self.d_k).transpose(0, 2, 1, 3)
        attn = sdpa(Qh, Kh, Vh, mask=mask)
        return attn.transpose(0, 2, 1, 3).reshape(B, Tq, self.d_model) @ self.W_o


def decoder_self_attention(layer: MultiHeadedAttention, x, tgt_tokens, pad_id=0):
    tgt_mask = create_padding_mask(tgt_tokens, pad_id) * create_look_ahead_mask(tgt_tokens.shape[1])
    return layer.forward(x, x, x, mask=tgt_mask)
