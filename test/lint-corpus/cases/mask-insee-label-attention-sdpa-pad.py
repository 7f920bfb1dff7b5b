# case: mask-insee-label-attention-sdpa-pad
# modelled-on: InseeFrLab/torchTextClassifiers https://github.com/InseeFrLab/torchTextClassifiers/pull/92
# label: buggy
# pattern: label-attention cross attention (one learned query per class over the token embeddings); a helper in the class turns the tokenizer mask into a padding mask, which is then handed to SDPA's boolean attn_mask
# why: SDPA's boolean attn_mask keeps True positions, so every class query attends only to the padding tokens and ignores the text
import torch
import torch.nn as nn
import torch.nn.functional as F


class LabelAttentionClassifier(nn.Module):
    def __init__(self, embedding_dim: int, num_classes: int, n_heads: int = 4):
        super().__init__()
        if embedding_dim % n_heads != 0:
            raise ValueError(f"embedding_dim ({embedding_dim}) must be divisible by n_heads ({n_heads})")
        self.n_heads = n_heads
        self.head_dim = embedding_dim // n_heads
        self.label_queries = nn.Parameter(torch.randn(num_classes, embedding_dim) * 0.02)
        self.k_proj = nn.Linear(embedding_dim, embedding_dim)
        self.v_proj = nn.Linear(embedding_dim, embedding_dim)
        self.out_proj = nn.Linear(embedding_dim, embedding_dim)
        self.classifier = nn.Linear(embedding_dim, 1)

    @staticmethod
    def _padding_mask(attention_mask: torch.Tensor) -> torch.Tensor:
        """(B, L) tokenizer mask (1 = token) -> (B, 1, 1, L) bool, True at padding."""
        return (attention_mask == 0)[:, None, None, :]

    def _split(self, x: torch.Tensor) -> torch.Tensor:
        b, n, _ = x.shape
        return x.view(b, n, self.n_heads, self.head_dim).transpose(1, 2)  # (B, H, n, hd)

    def forward(self, token_embeddings: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        batch_size = token_embeddings.size(0)
        q = self.label_queries.unsqueeze(0).expand(batch_size, -1, -1)  # (B, C, D)
        q = self._split(q)  # (B, H, C, hd)
        k = self._split(self.k_proj(token_embeddings))  # (B, H, L, hd)
        v = self._split(self.v_proj(token_embeddings))
        pad_mask = self._padding_mask(attention_mask)
        sentence_per_label = F.scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=pad_mask,  # expect: ATT002
        )  # (B, H, C, hd)
        sentence_per_label = sentence_per_label.transpose(1, 2).reshape(batch_size, -1, self.n_heads * self.head_dim)
        logits = self.classifier(self.out_proj(sentence_per_label)).squeeze(-1)  # (B, C)
        return logits
