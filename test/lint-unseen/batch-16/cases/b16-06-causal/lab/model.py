import torch
import torch.nn as nn

from .attention import GroupedQueryAttention


class Layer(nn.Module):
    def __init__(self, d_model, n_heads, n_kv_heads):
        super().__init__()
        self.attn_norm = nn.RMSNorm(d_model)
        self.attn = GroupedQueryAttention(d_model, n_heads, n_kv_heads)
        self.ffn_norm = nn.RMSNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.SiLU(), nn.Linear(4 * d_model, d_model))


class SmallLM(nn.Module):
    def __init__(self, vocab, d_model=256, n_heads=8, n_kv_heads=2, n_layers=4, rope=None):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList([Layer(d_model, n_heads, n_kv_heads) for _ in range(n_layers)])
        self.norm = nn.RMSNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)
        self.rope = rope

    def forward(self, input_ids, attention_mask=None):
        B, S = input_ids.shape
        x = self.tok_emb(input_ids)
        if attention_mask is None:
            # True = masked
            causal = torch.triu(torch.ones(S, S, dtype=torch.bool, device=x.device), diagonal=1)
            attention_mask = causal.unsqueeze(0).unsqueeze(0)
        for layer in self.layers:
            h, _ = layer.attn(layer.attn_norm(x), rope=self.rope, attention_mask=attention_mask)
            x = x + h
            x = x + layer.ffn(layer.ffn_norm(x))
        return self.lm_head(self.norm(x))

    def forward_with_cache(self, input_ids, kv_caches=None, positions=None, attention_mask=None):
        """Cached forward for generation; S is typically 1."""
        kv_caches = kv_caches or {}
        new_caches = {}
        x = self.tok_emb(input_ids)
        for i, layer in enumerate(self.layers):
            h, new_caches[i] = layer.attn(
                layer.attn_norm(x),
                rope=self.rope,
                attention_mask=attention_mask,
                kv_cache=kv_caches.get(i),
                positions=positions,
            )
            x = x + h
            x = x + layer.ffn(layer.ffn_norm(x))
        return self.lm_head(self.norm(x)), new_caches
