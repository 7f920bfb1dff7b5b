# case: mask-mildlyoverfitted-mha-triu-bool
# modelled-on: jankrepl/mildlyoverfitted https://github.com/jankrepl/mildlyoverfitted/issues/20
# label: correct
# pattern: a GPT block builds its causal mask in forward with torch.triu(ones, diagonal=1) cast to bool, True above the diagonal, and hands it to nn.MultiheadAttention's attn_mask; the same triu-bool construction that is inverted when handed to F.scaled_dot_product_attention
# why: nn.MultiheadAttention reads a bool attn_mask as True = not allowed to attend, so the upper triangle (the future) is what gets blocked; the reporter of #20 asked why the mask is upper triangular and the author explained that a token may only look to its left
# looks-like: ATT002
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, n_embd, n_head, n_positions, attn_pdrop, resid_pdrop, layer_norm_epsilon):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd, eps=layer_norm_epsilon)
        self.ln_2 = nn.LayerNorm(n_embd, eps=layer_norm_epsilon)
        self.attention = nn.MultiheadAttention(
            embed_dim=n_embd,
            num_heads=n_head,
            dropout=attn_pdrop,
            bias=True,
            batch_first=True,
        )
        self.register_buffer(
            "mask",
            (1 - torch.tril(torch.ones(n_positions, n_positions))).to(dtype=torch.bool),
        )
        self.mlp = nn.Sequential(
            nn.Linear(n_embd, 4 * n_embd),
            nn.GELU(),
            nn.Linear(4 * n_embd, n_embd),
            nn.Dropout(resid_pdrop),
        )

    def forward(self, x):
        batch_size, n_tokens, n_embd = x.shape
        x_ = self.ln_1(x)
        mask = self.mask[:n_tokens, :n_tokens]
        attn_out, _ = self.attention(x_, x_, x_, attn_mask=mask, need_weights=False)
        x = x + attn_out
        x = x + self.mlp(self.ln_2(x))
        return x


def causal_block_mask(n_tokens, device):
    return torch.triu(torch.ones(n_tokens, n_tokens, device=device), diagonal=1).bool()


class Decoder(nn.Module):
    def __init__(self, n_embd, n_head, n_layer):
        super().__init__()
        self.layers = nn.ModuleList(
            [nn.TransformerEncoderLayer(n_embd, n_head, 4 * n_embd, batch_first=True) for _ in range(n_layer)]
        )

    def forward(self, x):
        mask = causal_block_mask(x.shape[1], x.device)
        for layer in self.layers:
            x = layer(x, src_mask=mask)
        return x
