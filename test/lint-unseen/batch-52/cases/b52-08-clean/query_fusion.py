# case: b52-08-clean
# modelled-on: richardnguyen0715/vqa-model-builder https://github.com/richardnguyen0715/vqa-model-builder/commit/ad40fad2f44aff979917b58e8ab4670103039f62
# label: correct
# class: clean
# pattern: a folder: two vision-language fusion modules that take boolean masks with True = valid token: a querying-transformer layer (learned queries, self-attention, then cross-attention to the image tokens and to the text tokens through nn.MultiheadAttention(batch_first=True) with key_padding_mask=~mask), and a single-stream encoder that prepends a CLS token, concatenates image and text tokens, concatenates [ones for CLS, image mask, text mask] and hands ~mask to nn.TransformerEncoder as src_key_padding_mask; the usage script (other file) builds the masks as ones and sets the padded text positions to False
# why: correct: nn.MultiheadAttention and nn.TransformerEncoder read a boolean key padding mask as True = ignore; the modules receive True = valid, so inverting with ~ gives True exactly on padding; the CLS entry is always valid, so no row of keys is empty; the scale and the softmax are the modules' own (1/sqrt(head_dim), over the keys); the learned queries carry no padding, so their self-attention needs no mask
# looks-like: ATT002
# source: https://github.com/richardnguyen0715/vqa-model-builder https://github.com/richardnguyen0715/vqa-model-builder/commit/ad40fad2f44aff979917b58e8ab4670103039f62 src/modeling/fusion/fusion_approaches.py
from typing import Optional

import torch
import torch.nn as nn


def _ffn(dim: int, hidden: int, p: float) -> nn.Sequential:
    return nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Dropout(p), nn.Linear(hidden, dim), nn.Dropout(p))


class QueryFusionLayer(nn.Module):
    """Learned queries read from both modalities; masks are True where a token is real."""

    def __init__(self, dim: int, heads: int, hidden: int, p: float = 0.1):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, dropout=p, batch_first=True)
        self.img_attn = nn.MultiheadAttention(dim, heads, dropout=p, batch_first=True)
        self.txt_attn = nn.MultiheadAttention(dim, heads, dropout=p, batch_first=True)
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(6)])
        self.ffns = nn.ModuleList([_ffn(dim, hidden, p) for _ in range(3)])

    def forward(self, queries, image, text, image_valid: Optional[torch.Tensor] = None, text_valid: Optional[torch.Tensor] = None):
        h, _ = self.self_attn(queries, queries, queries)
        x = self.norms[0](queries + h)
        x = self.norms[1](x + self.ffns[0](x))
        h, _ = self.img_attn(x, image, image, key_padding_mask=None if image_valid is None else ~image_valid)
        x = self.norms[2](x + h)
        x = self.norms[3](x + self.ffns[1](x))
        h, _ = self.txt_attn(x, text, text, key_padding_mask=None if text_valid is None else ~text_valid)
        x = self.norms[4](x + h)
        return self.norms[5](x + self.ffns[2](x))


class QueryFusion(nn.Module):
    def __init__(self, dim: int = 768, n_queries: int = 32, heads: int = 8, depth: int = 4, hidden: int = 3072):
        super().__init__()
        self.queries = nn.Parameter(torch.randn(1, n_queries, dim) * 0.02)
        self.layers = nn.ModuleList([QueryFusionLayer(dim, heads, hidden) for _ in range(depth)])
        self.out = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim))

    def forward(self, image, text, image_valid=None, text_valid=None):
        q = self.queries.expand(image.size(0), -1, -1)
        for layer in self.layers:
            q = layer(q, image, text, image_valid, text_valid)
        return self.out(q).mean(dim=1)


class JointStreamFusion(nn.Module):
    """[CLS] + image tokens + text tokens through one encoder."""

    def __init__(self, dim: int = 768, heads: int = 12, depth: int = 6, hidden: int = 3072, max_tokens: int = 512):
        super().__init__()
        self.kind = nn.Embedding(2, dim)
        self.pos = nn.Parameter(torch.zeros(1, max_tokens, dim))
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        layer = nn.TransformerEncoderLayer(dim, heads, hidden, dropout=0.1, activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=depth)
        self.norm = nn.LayerNorm(dim)

    def forward(self, image, text, image_valid=None, text_valid=None):
        b, n_img, n_txt = image.size(0), image.size(1), text.size(1)
        image = image + self.kind(torch.zeros(b, n_img, dtype=torch.long, device=image.device))
        text = text + self.kind(torch.ones(b, n_txt, dtype=torch.long, device=text.device))
        tokens = torch.cat([self.cls.expand(b, -1, -1), image, text], dim=1)
        tokens = tokens + self.pos[:, : tokens.size(1)]
        pad = None
        if image_valid is not None or text_valid is not None:
            ones = lambda n: torch.ones(b, n, dtype=torch.bool, device=tokens.device)
            valid = torch.cat(
                [ones(1), ones(n_img) if image_valid is None else image_valid, ones(n_txt) if text_valid is None else text_valid],
                dim=1,
            )
            pad = ~valid  # the encoder wants True where it must not look
        return self.norm(self.encoder(tokens, src_key_padding_mask=pad)[:, 0])
