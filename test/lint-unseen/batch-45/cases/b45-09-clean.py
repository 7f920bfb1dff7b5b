# case: b45-09-clean
# modelled-on: PBL5-BKDN/image_captioning https://github.com/PBL5-BKDN/image_captioning/commit/45a2828fec7a335a91a6999193364a2dd1403d09
# label: correct
# class: clean
# pattern: the vision-Transformer captioner's decoder (the repository's later model beside the older decoder): learned token plus positional embeddings, a stack of blocks each with masked self-attention and encoder-decoder attention through nn.MultiheadAttention (batch_first), the causal mask built in the block as torch.triu(torch.ones(T, T), diagonal=1).bool() and passed as attn_mask, the cross-attention over the image patches unmasked, post-norm residuals and a GELU MLP
# why: correct: for nn.MultiheadAttention a boolean attn_mask means True = not allowed to attend, and triu(..., diagonal=1) is True exactly above the diagonal, i.e. at the future tokens; the diagonal stays visible, so no row is fully masked; the image patches all exist, so the cross-attention needs no mask; nn.MultiheadAttention scales by 1/sqrt(head_dim) itself
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/PBL5-BKDN/image_captioning https://github.com/PBL5-BKDN/image_captioning/commit/45a2828fec7a335a91a6999193364a2dd1403d09 model/DecoderVIT.py
import torch
import torch.nn as nn


class CaptionBlock(nn.Module):
    def __init__(self, dim, heads, mlp_dim=1024):
        super().__init__()
        self.masked_self = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.to_image = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ln_a = nn.LayerNorm(dim)
        self.ln_b = nn.LayerNorm(dim)
        self.ln_c = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp_dim), nn.GELU(), nn.Dropout(0.1), nn.Linear(mlp_dim, dim), nn.Dropout(0.1))

    def forward(self, tokens, patches):
        """tokens: (B, T, dim) caption embeddings; patches: (B, N, dim) encoder output."""
        steps = tokens.shape[1]
        no_peek = torch.triu(torch.ones(steps, steps, device=tokens.device), diagonal=1).bool()
        out, _ = self.masked_self(tokens, tokens, tokens, attn_mask=no_peek)
        tokens = self.ln_a(tokens + out)
        out, _ = self.to_image(tokens, patches, patches)
        tokens = self.ln_b(tokens + out)
        return self.ln_c(tokens + self.mlp(tokens))


class CaptionDecoder(nn.Module):
    def __init__(self, vocab_size, dim, heads, depth=2, mlp_dim=1024, max_len=30):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, dim)
        self.pos = nn.Parameter(torch.zeros(1, max_len, dim))
        self.blocks = nn.ModuleList(CaptionBlock(dim, heads, mlp_dim) for _ in range(depth))
        self.head = nn.Linear(dim, vocab_size)

    def forward(self, ids, patches):
        x = self.tok(ids) + self.pos[:, : ids.shape[1]]
        for blk in self.blocks:
            x = blk(x, patches)
        return self.head(x)


class PatchEncoderBlock(nn.Module):
    def __init__(self, dim, heads, mlp_dim=1024):
        super().__init__()
        self.ln_attn = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True, dropout=0.1)
        self.ln_mlp = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp_dim), nn.GELU(), nn.Linear(mlp_dim, dim))

    def forward(self, x):
        x = self.ln_attn(x + self.attn(x, x, x, need_weights=False)[0])
        return self.ln_mlp(x + self.mlp(x))
