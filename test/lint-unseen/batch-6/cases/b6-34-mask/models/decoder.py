import numpy as np

from attention.scaled_dot_product import scaled_dot_product_attention
from utils.masks import combine_masks, create_look_ahead_mask, create_padding_mask


class MultiHeadAttention:
    def __init__(self, d_model, num_heads):
        self.num_heads, self.d_k, self.d_model = num_heads, d_model // num_heads, d_model
        self.W_Q, self.W_K, self.W_V, self.W_O = (np.random.randn(d_model, d_model) * 0.01 for _ in range(4))

    def split_heads(self, x, batch_size):
        return x.reshape(batch_size, -1, self.num_heads, self.d_k).transpose(0, 2, 1, 3)

    def forward(self, Q, K, V, mask=None):
        b = Q.shape[0]
        q = self.split_heads(Q @ self.W_Q, b).reshape(b * self.num_heads, -1, self.d_k)
        k = self.split_heads(K @ self.W_K, b).reshape(b * self.num_heads, -1, self.d_k)
        v = self.split_heads(V @ self.W_V, b).reshape(b * self.num_heads, -1, self.d_k)
        out, attn = scaled_dot_product_attention(q, k, v, mask)
        out = out.reshape(b, self.num_heads, -1, self.d_k).transpose(0, 2, 1, 3).reshape(b, -1, self.d_model)
        return out @ self.W_O, attn


class DecoderLayer:
    def __init__(self, d_model, num_heads):
        self.num_heads = num_heads
        self.self_attn = MultiHeadAttention(d_model, num_heads)

    def prepare_masks_for_mha(self, mask, batch_size):
        if mask is None:
            return None
        mask_squeezed = np.squeeze(mask, axis=1)  # (B or 1, T, T)
        if mask_squeezed.shape[0] == 1 and batch_size > 1:
            mask_squeezed = np.repeat(mask_squeezed, repeats=batch_size, axis=0)
        return np.repeat(mask_squeezed, repeats=self.num_heads, axis=0)  # (B * H, T, T), batch-major like the heads

    def forward(self, x, tar_ids):
        B, T = x.shape[0], x.shape[1]
        combined = combine_masks(create_look_ahead_mask(T), create_padding_mask(tar_ids))
        out, _ = self.self_attn.forward(x, x, x, self.prepare_masks_for_mha(combined, B))
        return x + out
