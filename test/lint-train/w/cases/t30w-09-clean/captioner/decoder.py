"""Caption decoder: masked self-attention, cross-attention to image patches, feed-forward."""
import torch
from torch import nn

from captioner.self_attention import MaskedMultiHeadSelfAttention


class CrossAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(d_model, eps=1e-6)
        self.mha = nn.MultiheadAttention(d_model, num_heads, dropout=dropout, batch_first=True)

    def forward(self, text: torch.Tensor, visual: torch.Tensor) -> torch.Tensor:
        # every one of the 7 x 7 patch features is real: no key padding on the image side
        out, _ = self.mha(self.norm(text), visual, visual, need_weights=False)
        return text + out


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int = 512, num_heads: int = 4, d_ff: int = 2048) -> None:
        super().__init__()
        self.self_attn = MaskedMultiHeadSelfAttention(d_model, num_heads)
        self.cross_attn = CrossAttention(d_model, num_heads)
        self.ff = nn.Sequential(nn.LayerNorm(d_model), nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))

    def forward(self, text, visual, padding_mask=None):
        text, _ = self.self_attn(text, padding_mask)
        text = self.cross_attn(text, visual)
        return text + self.ff(text)


class CaptionDecoder(nn.Module):
    def __init__(self, vocab: int, max_len: int, d_model: int = 512, layers: int = 4) -> None:
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList([DecoderBlock(d_model) for _ in range(layers)])
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids, visual, padding_mask=None):
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for block in self.blocks:
            x = block(x, visual, padding_mask)
        return self.head(self.norm(x))

    @torch.no_grad()
    def greedy(self, visual: torch.Tensor, bos: int, eos: int, max_len: int) -> torch.Tensor:
        ids = torch.full((visual.size(0), 1), bos, dtype=torch.long, device=visual.device)
        for _ in range(max_len - 1):
            nxt = self(ids, visual)[:, -1].argmax(-1, keepdim=True)  # whole prefix, no cache
            ids = torch.cat([ids, nxt], dim=1)
            if (nxt == eos).all():
                break
        return ids
