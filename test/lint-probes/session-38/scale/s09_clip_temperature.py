import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ContrastiveHead(nn.Module):
    def __init__(self, embed_dim):
        super().__init__()
        self.logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))
        self.img = nn.Linear(embed_dim, embed_dim)
        self.txt = nn.Linear(embed_dim, embed_dim)

    def forward(self, image_features, text_features, values):
        image_features = F.normalize(self.img(image_features), dim=-1)
        text_features = F.normalize(self.txt(text_features), dim=-1)
        logits = self.logit_scale.exp() * image_features @ text_features.t()
        probs = logits.softmax(dim=-1)
        return probs @ values
