# case: b52-02-clean
# modelled-on: richardnguyen0715/vqa-model-builder https://github.com/richardnguyen0715/vqa-model-builder/commit/140d500ebb09f1617fe2436990de95f4e3ab8e58
# label: correct
# class: clean
# pattern: a folder: a visual question answering model fuses question tokens with image patch tokens through stacked blocks of nn.MultiheadAttention(batch_first=True): self-attention over the question with key_padding_mask=query_mask, then cross-attention from the question to the patches with key_padding_mask=kv_mask; the top-level model (other file) gets the tokenizer's attention_mask (1 = real token, 0 = padding) and passes text_mask=~attention_mask.bool() into the fusion, with no mask for the patches
# why: correct: nn.MultiheadAttention's boolean key_padding_mask means True = ignore this key; the tokenizer mask is 1 on real tokens, so ~attention_mask.bool() is True exactly on the padding, the polarity the module wants; the image patches are never padded, so kv_mask stays None; the module applies its own 1/sqrt(head_dim) scale and softmax over the keys; the -1e9 fill in the text encoder's max pooling acts on hidden states, not on attention scores
# looks-like: ATT002, ATT007
# source: https://github.com/richardnguyen0715/vqa-model-builder https://github.com/richardnguyen0715/vqa-model-builder/commit/140d500ebb09f1617fe2436990de95f4e3ab8e58 src/modeling/meta_arch/vqa_model.py
from typing import Optional

import torch
import torch.nn as nn


class QuestionImageBlock(nn.Module):
    """Question self-attention, then question -> image cross-attention, then a feed-forward."""

    def __init__(self, dim: int, heads: int = 8, dropout: float = 0.1):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.cross_attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.ffn = nn.Sequential(
            nn.Linear(dim, 4 * dim),
            nn.GELU(),
            nn.Dropout(dropout),
            nn.Linear(4 * dim, dim),
        )
        self.ln_self = nn.LayerNorm(dim)
        self.ln_cross = nn.LayerNorm(dim)
        self.ln_ffn = nn.LayerNorm(dim)
        self.drop = nn.Dropout(dropout)

    def forward(
        self,
        question: torch.Tensor,
        image: torch.Tensor,
        query_mask: Optional[torch.Tensor] = None,
        kv_mask: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        h, _ = self.self_attn(question, question, question, key_padding_mask=query_mask)
        x = self.ln_self(question + self.drop(h))
        h, _ = self.cross_attn(x, image, image, key_padding_mask=kv_mask)
        x = self.ln_cross(x + self.drop(h))
        return self.ln_ffn(x + self.drop(self.ffn(x)))


class Fusion(nn.Module):
    def __init__(self, dim: int, out_dim: int, heads: int, depth: int, kind: str = "cross_attention"):
        super().__init__()
        self.kind = kind
        if kind == "cross_attention":
            self.blocks = nn.ModuleList([QuestionImageBlock(dim, heads) for _ in range(depth)])
            self.proj = nn.Linear(dim, out_dim)
        else:
            self.proj = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, out_dim))
        self.norm = nn.LayerNorm(out_dim)

    def forward(self, image_tokens, question_tokens, image_mask=None, question_mask=None):
        if self.kind == "cross_attention":
            x = question_tokens
            for block in self.blocks:
                x = block(x, image_tokens, question_mask, image_mask)
            fused = self.proj(x[:, 0])
        else:
            fused = self.proj(torch.cat([image_tokens[:, 0], question_tokens[:, 0]], dim=-1))
        return self.norm(fused)
