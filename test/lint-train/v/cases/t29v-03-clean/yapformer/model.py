import torch
import torch.nn as nn

from .attention import GroupedQueryAttention
from .config import Config


class Block(nn.Module):
    def __init__(self, d_model, num_q_heads, num_kv_heads, max_seq_len):
        super().__init__()
        self.norm1 = nn.LayerNorm(d_model)
        self.attn = GroupedQueryAttention(d_model, num_q_heads, num_kv_heads, max_seq_len)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.SiLU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, mask=None):
        x = x + self.attn(self.norm1(x), mask=mask)
        return x + self.ff(self.norm2(x))


class DecoderOnlyTransformer(nn.Module):
    def __init__(self, vocab_size, d_model, num_layers, num_q_heads, num_kv_heads, max_seq_len):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.blocks = nn.ModuleList(
            [Block(d_model, num_q_heads, num_kv_heads, max_seq_len) for _ in range(num_layers)]
        )
        self.final_norm = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)
        self.lm_head.weight = self.token_embedding.weight

    def create_mask(self, input_ids, pad_token_id=0):
        """Padding + causal keep-mask (True = attend): (B, 1, T, T)."""
        batch_size, seq_len = input_ids.shape
        padding_mask = (input_ids != pad_token_id).unsqueeze(1).unsqueeze(2)
        causal_mask = torch.tril(torch.ones(1, 1, seq_len, seq_len, device=input_ids.device)).bool()
        return padding_mask & causal_mask

    def forward(self, input_ids, mask=None):
        x = self.token_embedding(input_ids)
        if mask is None:
            mask = self.create_mask(input_ids)
        for block in self.blocks:
            x = block(x, mask=mask)
        return self.lm_head(self.final_norm(x))


def build_model(cfg=Config):
    return DecoderOnlyTransformer(
        cfg.vocab_size, cfg.d_model, cfg.num_layers, cfg.num_q_heads, cfg.num_kv_heads, cfg.max_seq_len
    )
