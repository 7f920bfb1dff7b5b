# case: clean-mildlyoverfitted-gpt-mha-one-minus-tril
# modelled-on: jankrepl/mildlyoverfitted https://github.com/jankrepl/mildlyoverfitted/issues/20
# label: correct
# class: clean
# pattern: a GPT block on nn.MultiheadAttention(batch_first=True) whose causal mask is a registered buffer built as (1 - tril(ones)).to(bool) in __init__ and sliced to the current length in forward
# why: 1 - tril(ones) is True strictly above the diagonal, i.e. at the future positions, and nn.MultiheadAttention's boolean attn_mask means True = not allowed to attend; the reporter asked why the mask is upper-triangular and the author explained it is the future that is masked
# looks-like: ATT002
# source: https://github.com/jankrepl/mildlyoverfitted https://github.com/jankrepl/mildlyoverfitted/commit/22f0ecc67cef14267ee91ff2e4df6bf9f6d65bc2 github_adventures/gpt/model.py
import torch
import torch.nn as nn

from transformers.activations import gelu_new


class CustomGELU(nn.Module):
    def forward(self, x):
        return gelu_new(x)


class Block(nn.Module):
    """Decoder block."""

    def __init__(self, *, n_embd, n_head, n_positions, attn_pdrop, resid_pdrop, layer_norm_epsilon):
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
            CustomGELU(),
            nn.Linear(4 * n_embd, n_embd),
            nn.Dropout(resid_pdrop),
        )

    def forward(self, x):
        batch_size, n_tokens, n_embd = x.shape
        x_ = self.ln_1(x)  # (batch_size, n_tokens, n_embd)
        mask = self.mask[:n_tokens, :n_tokens]  # (n_tokens, n_tokens)
        attn_out, _ = self.attention(x_, x_, x_, attn_mask=mask, need_weights=False)
        x = x + attn_out
        x = x + self.mlp(self.ln_2(x))
        return x


class GPT(nn.Module):
    def __init__(self, *, vocab_size, n_layer, n_embd, n_head, n_positions, attn_pdrop, embd_pdrop, resid_pdrop,
                 layer_norm_epsilon):
        super().__init__()
        self.n_positions = n_positions
        self.token_emb = nn.Embedding(vocab_size, n_embd)
        self.pos_emb = nn.Embedding(n_positions, n_embd)
        self.drop = nn.Dropout(embd_pdrop)
        self.blocks = nn.Sequential(*[
            Block(n_embd=n_embd, n_head=n_head, n_positions=n_positions, attn_pdrop=attn_pdrop,
                  resid_pdrop=resid_pdrop, layer_norm_epsilon=layer_norm_epsilon)
            for _ in range(n_layer)
        ])
        self.ln = nn.LayerNorm(n_embd, eps=layer_norm_epsilon)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx):
        batch_size, n_tokens = idx.shape
        positions = torch.arange(n_tokens, device=idx.device)
        x = self.drop(self.token_emb(idx) + self.pos_emb(positions)[None, ...])
        x = self.blocks(x)
        return self.head(self.ln(x))
