import torch
import torch.nn as nn

from model.layers import CrossAttention, SelfAttention


class DecoderLayer(nn.Module):
    def __init__(self, n_head: int, d_model: int, dropout: float = 0.1):
        super().__init__()
        self.self_attn = SelfAttention(n_head, d_model, dropout)
        self.cross_attn = CrossAttention(n_head, d_model, dropout)

    def forward(self, x, memory, src_mask=None, tgt_mask=None):
        x = self.self_attn(x, attn_mask=tgt_mask)
        return self.cross_attn(x, memory, src_mask)


class Seq2Seq(nn.Module):
    def __init__(self, encoder: nn.Module, decoder: nn.Module, device: str = "cpu"):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.device = device

    def padding_mask(self, tokens: torch.Tensor) -> torch.Tensor:
        # (B, 1, 1, S): True where the token is real (id 0 is padding)
        return (tokens != 0).unsqueeze(1).unsqueeze(2).to(self.device)

    def target_mask(self, target: torch.Tensor) -> torch.Tensor:
        pad = (target != 0).unsqueeze(1).unsqueeze(2).to(self.device)
        n = target.shape[1]
        earlier = torch.tril(torch.ones((n, n), device=self.device)).bool()
        return pad & earlier

    def forward(self, source, target):
        src_mask = self.padding_mask(source)
        tgt_mask = self.target_mask(target)
        memory = self.encoder(source, src_mask)
        return self.decoder(target, memory, src_mask, tgt_mask)
