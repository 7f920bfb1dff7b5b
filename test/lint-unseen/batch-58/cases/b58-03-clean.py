# case: b58-03-clean
# modelled-on: thenoobychocobo/gpt2-image-captioning https://github.com/thenoobychocobo/gpt2-image-captioning/commit/1dbc60b9a80f29e5d5d9550d70c4639d2787338c
# label: correct
# class: clean
# pattern: a retrieval-augmented prefix captioner on GPT-2: the retrieved caption embeddings of each image, (batch, top_k, dim), are pooled by a learned attention score per retrieved caption, softmax over dim=1 of a (batch, top_k, 1) tensor, added to the image embedding, mapped to prefix tokens, and fed to GPT-2 with the tokenizer's 0/1 keep mask widened by a block of ones for the prefix
# why: correct: dim=1 of (batch, top_k, 1) is the retrieved-caption axis, the one the pooling normalises over (the last axis has length 1 and would give all-ones weights); the GPT-2 attention_mask is Hugging Face's keep mask (1 = attend, 0 = padding), and the prefix block is ones because the prefix tokens must be attended to; the causal masking and scaling happen inside GPT-2
# looks-like: ATT001, ATT002
# source: https://github.com/thenoobychocobo/gpt2-image-captioning https://github.com/thenoobychocobo/gpt2-image-captioning/commit/1dbc60b9a80f29e5d5d9550d70c4639d2787338c src/models.py
from typing import Literal

import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import GPT2LMHeadModel


class RetrievedPooling(nn.Module):
    """Pools the embeddings of the top-k retrieved captions into one vector per image."""

    def __init__(self, dim: int, how: Literal["mean", "max", "attention"] = "mean"):
        super().__init__()
        self.how = how
        if how == "attention":
            self.score = nn.Linear(dim, 1)

    def forward(self, image_vec: torch.Tensor, retrieved: torch.Tensor) -> torch.Tensor:
        # image_vec: (batch, dim); retrieved: (batch, top_k, dim)
        if self.how == "mean":
            pooled = retrieved.mean(dim=1)
        elif self.how == "max":
            pooled = retrieved.max(dim=1).values
        else:
            weights = F.softmax(self.score(retrieved), dim=1)  # (batch, top_k, 1)
            pooled = (weights * retrieved).sum(dim=1)
        return image_vec + pooled


class PrefixCaptioner(nn.Module):
    def __init__(self, to_prefix: nn.Module, prefix_len: int, pooling: RetrievedPooling, freeze_lm: bool = True):
        super().__init__()
        self.to_prefix = to_prefix  # (batch, dim) -> (batch, prefix_len, lm_width)
        self.prefix_len = prefix_len
        self.pooling = pooling
        self.lm = GPT2LMHeadModel.from_pretrained("gpt2")
        for p in self.lm.parameters():
            p.requires_grad = not freeze_lm

    def forward(self, image_vec, retrieved, caption_ids, keep_mask=None, labels=None):
        """keep_mask: the tokenizer's attention mask for the caption, 1 = token, 0 = padding."""
        prefix = self.to_prefix(self.pooling(image_vec, retrieved))
        words = self.lm.transformer.wte(caption_ids)
        inputs = torch.cat([prefix, words], dim=1)

        if labels is not None:
            ignore = labels.new_full((labels.size(0), self.prefix_len), -100)
            labels = torch.cat([ignore, labels], dim=1)

        if keep_mask is not None:
            prefix_keep = keep_mask.new_ones(keep_mask.size(0), self.prefix_len)
            keep_mask = torch.cat([prefix_keep, keep_mask], dim=1)

        return self.lm(inputs_embeds=inputs, attention_mask=keep_mask, labels=labels)


def caption_loss(model: PrefixCaptioner, batch: dict) -> torch.Tensor:
    out = model(
        batch["image_vec"],
        batch["retrieved"],
        batch["input_ids"],
        keep_mask=batch["attention_mask"],
        labels=batch["labels"],
    )
    return out.loss
