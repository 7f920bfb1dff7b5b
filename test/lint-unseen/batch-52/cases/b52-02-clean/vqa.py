from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F

from fusion import Fusion


class QuestionEncoder(nn.Module):
    def __init__(self, backbone: nn.Module, hidden: int, out_dim: int, pooling: str = "mean"):
        super().__init__()
        self.backbone = backbone
        self.pooling = pooling
        self.proj = nn.Linear(hidden, out_dim) if hidden != out_dim else nn.Identity()

    def pool(self, states: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        keep = attention_mask.unsqueeze(-1)
        if self.pooling == "cls":
            return states[:, 0]
        if self.pooling == "max":
            return states.masked_fill(keep == 0, -1e9).max(dim=1).values
        keep = keep.float()
        return (states * keep).sum(1) / keep.sum(1).clamp(min=1e-9)

    def forward(self, input_ids, attention_mask):
        states = self.backbone(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return self.proj(self.pool(states, attention_mask)), self.proj(states)


class AnswerClassifier(nn.Module):
    def __init__(self, image_encoder, question_encoder, dim, heads, depth, n_answers):
        super().__init__()
        self.image_encoder = image_encoder
        self.question_encoder = question_encoder
        self.fusion = Fusion(dim, dim, heads, depth)
        self.classifier = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Dropout(0.2), nn.Linear(dim, n_answers))

    def forward(
        self,
        pixel_values: torch.Tensor,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        labels: Optional[torch.Tensor] = None,
    ):
        _, patches = self.image_encoder(pixel_values)
        _, words = self.question_encoder(input_ids, attention_mask)
        # the tokenizer marks real tokens with 1; the fusion wants True on padding
        fused = self.fusion(patches, words, question_mask=~attention_mask.bool())
        logits = self.classifier(fused)
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return logits, loss, logits.argmax(-1)
