# case: b61-06-mask
# modelled-on: YangLu963/robot_simulation https://github.com/YangLu963/robot_simulation/commit/40b2146720c7a9b4657e2ee0a29bfc2428370243
# label: buggy
# class: real-bug
# pattern: vision-to-language cross-attention of a robot instruction-following model (a folder: `text.py` tokenises the instructions with a BERT tokenizer, `padding=True`, and returns the tokenizer's `attention_mask` next to the token states; `model.py` hands that mask on as `text_mask`; `cross.py` projects the visual query and the token keys and calls `nn.MultiheadAttention(..., batch_first=True)` with `key_padding_mask=text_mask`)
# why: buggy: the tokenizer's `attention_mask` is 1 on real tokens and 0 on padding, while `key_padding_mask` means the opposite (True / non-zero = ignore this key), as PyTorch documents; handed over unchanged, it would hide every real instruction token and leave the visual query attending only to padding (rows of unpadded instructions have no key left), and since it is an integer tensor, current PyTorch rejects it outright ("only bool and floating types of key_padding_mask are supported"); the mask is built and threaded through three modules precisely so that padding is ignored, so the intent is to pass `attention_mask == 0`
# source: https://github.com/YangLu963/robot_simulation https://github.com/YangLu963/robot_simulation/commit/40b2146720c7a9b4657e2ee0a29bfc2428370243 src/multimodal/fusion.network.py
import torch.nn as nn


class VisionToText(nn.Module):
    def __init__(self, width=768, heads=8, p_drop=0.1):
        super().__init__()
        self.q_proj = nn.Sequential(nn.Linear(width, width), nn.LayerNorm(width))
        self.k_proj = nn.Sequential(nn.Linear(width, width), nn.LayerNorm(width))
        self.attn = nn.MultiheadAttention(embed_dim=width, num_heads=heads, dropout=p_drop, batch_first=True)
        self.drop = nn.Dropout(p_drop)
        self.norm = nn.LayerNorm(width)

    def forward(self, visual, tokens, text_mask=None):
        """visual: (B, Nv, D) queries; tokens: (B, L, D) keys and values; text_mask: (B, L)."""
        q = self.q_proj(visual)
        k = self.k_proj(tokens)
        out, weights = self.attn(
            query=q,
            key=k,
            value=tokens,
            key_padding_mask=text_mask,  # expect: ATT002
        )
        return self.norm(visual + self.drop(out)), weights
