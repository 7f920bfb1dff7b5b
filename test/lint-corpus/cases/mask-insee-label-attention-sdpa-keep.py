# case: mask-insee-label-attention-sdpa-keep
# modelled-on: InseeFrLab/torchTextClassifiers https://github.com/InseeFrLab/torchTextClassifiers/pull/92
# label: correct
# pattern: the fixed label attention: the tokenizer mask (1 = token) is converted to bool and passed to SDPA's attn_mask unchanged
# why: SDPA's boolean attn_mask means True = attend, which is exactly the tokenizer's 1 = token
# looks-like: ATT002
import torch
import torch.nn as nn
import torch.nn.functional as F


class LabelAttentionClassifier(nn.Module):
    def __init__(self, embedding_dim: int, num_classes: int, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = embedding_dim // n_heads
        self.label_queries = nn.Parameter(torch.randn(num_classes, embedding_dim) * 0.02)
        self.k_proj = nn.Linear(embedding_dim, embedding_dim)
        self.v_proj = nn.Linear(embedding_dim, embedding_dim)
        self.classifier = nn.Linear(embedding_dim, 1)

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        b, n, _ = x.shape
        return x.view(b, n, self.n_heads, self.head_dim).transpose(1, 2)

    def forward(self, token_embeddings: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        batch_size = token_embeddings.size(0)
        q = self._split(self.label_queries.unsqueeze(0).expand(batch_size, -1, -1))  # (B, H, C, hd)
        k = self._split(self.k_proj(token_embeddings))  # (B, H, L, hd)
        v = self._split(self.v_proj(token_embeddings))
        keep = attention_mask.bool()[:, None, None, :]  # (B, 1, 1, L), True = real token
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        out = out.transpose(1, 2).reshape(batch_size, -1, self.n_heads * self.head_dim)
        return self.classifier(out).squeeze(-1)
