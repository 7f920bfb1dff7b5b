# case: b23-01-clean
# modelled-on: wverbeke/TSPerceiver https://github.com/wverbeke/TSPerceiver/commit/358d3cfc844aa0f5c101dde916c1ef13798637b3
# label: correct
# class: clean
# pattern: a Perceiver image classifier: the byte array is the flattened pixels of a rescaled image zero-padded to a fixed length, with the valid length (scaled_h * scaled_w) returned by the data loader; the model builds a boolean cross-attention mask (arange(N) < valid).unsqueeze(1), repeats it over the latent queries and adds a head axis, and hands it through a cross-attention block to F.scaled_dot_product_attention(attn_mask=..., is_causal=False) in another module; the latent self-attention blocks pass no mask
# why: correct: for SDPA a boolean attn_mask is True where attention is allowed, and the mask is True exactly on the valid pixels, so the padded tail of the byte array is ignored; it is broadcast as (B, 1, Nq, Nk) against (B, heads, Nq, Nk); SDPA applies its own 1/sqrt(head width) scale; nothing is causal in a Perceiver, so is_causal=False is right
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/wverbeke/TSPerceiver https://github.com/wverbeke/TSPerceiver/commit/358d3cfc844aa0f5c101dde916c1ef13798637b3 perceiver.py
import torch
from torch import nn

from tsperc.attention import CrossAttentionBlock, SelfAttentionBlock, layer_norm


class Perceiver(nn.Module):
    def __init__(self, in_ch: int, pe_ch: int, n_latent: int, latent_ch: int, n_heads: int, n_blocks: int, dropout_p: float = 0.1):
        super().__init__()
        self.latent = nn.Parameter(torch.randn(1, n_latent, latent_ch) * 0.02)
        self.cross = nn.ModuleList(
            [CrossAttentionBlock(latent_ch, in_ch + pe_ch, n_heads, dropout_p) for _ in range(n_blocks)]
        )
        self.blocks = nn.ModuleList([SelfAttentionBlock(latent_ch, n_heads, dropout_p) for _ in range(n_blocks)])

    def forward(self, pixels: torch.Tensor, pe: torch.Tensor, scaled_h: torch.Tensor, scaled_w: torch.Tensor) -> torch.Tensor:
        # pixels: (B, N, C), zero-padded after the first scaled_h * scaled_w positions; pe: (B, N, P)
        batch = pixels.shape[0]
        data = torch.cat([pixels, pe], dim=-1)
        latent = self.latent.repeat(batch, 1, 1)

        # keep the valid pixels: (B, Nq, Nk), then a head axis
        idx = torch.arange(data.shape[1], device=data.device).unsqueeze(0).repeat(batch, 1)
        n_valid = (scaled_h * scaled_w).unsqueeze(1)
        cross_mask = (idx < n_valid).unsqueeze(1)
        cross_mask = cross_mask.repeat(1, latent.shape[1], 1).unsqueeze(1)

        x = latent
        for ca, block in zip(self.cross, self.blocks):
            x = ca(x, data, cross_mask)
            x = block(x)
        return x


class PerceiverClassifier(nn.Module):
    def __init__(self, perceiver: Perceiver, latent_ch: int, n_classes: int):
        super().__init__()
        self.perceiver = perceiver
        self.head = nn.Linear(latent_ch, n_classes)

    def forward(self, *args) -> torch.Tensor:
        x = self.perceiver(*args).mean(dim=1)
        return self.head(layer_norm(x))  # logits; the loss applies the softmax
