# case: t23p-10-mask
# modelled-on: Shrav25/causal-masked-multihead-attention https://github.com/Shrav25/causal-masked-multihead-attention/commit/904c08a3ac04b0adb05a0f15e846ac2908d88979
# label: buggy
# class: real-bug
# pattern: a "causal masked multi-head attention" wrapper around nn.MultiheadAttention(batch_first=True): a helper in another module returns torch.tril(torch.ones(T, T)) with two leading singleton axes, a float 0/1 keep mask (1 = may attend), and the wrapper passes causal_mask[0, 0] as attn_mask
# why: buggy: nn.MultiheadAttention adds a float attn_mask to the scores (only a boolean mask means "True = not allowed"), so the 0/1 lower-triangular matrix adds +1 to the allowed logits and 0 to the future ones: nothing is masked and every token sees the future, the opposite of the module's purpose. A boolean ~tril, a triu(diagonal=1) bool mask or a -inf additive mask is what the API expects. No fix exists in the repository's history
# source: https://github.com/Shrav25/causal-masked-multihead-attention https://github.com/Shrav25/causal-masked-multihead-attention/commit/904c08a3ac04b0adb05a0f15e846ac2908d88979 attention/multihead_attention.py
import torch
import torch.nn as nn

from attention.causal_mask import generate_causal_mask


class CausalMultiheadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.mha = nn.MultiheadAttention(embed_dim, num_heads, batch_first=True)
        self.embed_dim = embed_dim

    def forward(self, x):
        b, t, _ = x.size()
        causal_mask = generate_causal_mask(t, x.device)
        out, _ = self.mha(x, x, x, attn_mask=causal_mask[0, 0])  # expect: ATT002
        return out


if __name__ == "__main__":
    torch.manual_seed(0)
    layer = CausalMultiheadAttention(embed_dim=32, num_heads=4)
    print(layer(torch.randn(2, 5, 32)).shape)
