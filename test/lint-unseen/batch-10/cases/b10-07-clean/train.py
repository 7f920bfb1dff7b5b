import torch

from data.collator import PackedCollator
from model.attention import EagerAttention


def step(layer, embed, features):
    batch = PackedCollator(compute_dtype=torch.bfloat16)(features)
    hidden = embed(batch["input_ids"]).to(torch.bfloat16)
    return layer.to(torch.bfloat16)(hidden, attention_mask=batch["attention_mask"])


if __name__ == "__main__":
    feats = [{"input_ids": [5, 6, 7, 8, 0], "attention_mask": [1, 1, 2, 2, 0]}]
    print(step(EagerAttention(64, 4), torch.nn.Embedding(16, 64), feats).shape)
