import torch
import torch.nn as nn

from utils.transformer import TransformerBlock

PAD_ID = 1  # '<pad>' has id 1 in the torchtext vocabulary


class Classifier(nn.Module):
    def __init__(self, vectors, d_model=300, output_dim=2):
        super().__init__()
        self.embed = nn.Embedding.from_pretrained(vectors, freeze=True)
        self.block_1 = TransformerBlock(d_model)
        self.block_2 = TransformerBlock(d_model)
        self.head = nn.Linear(d_model, output_dim)

    def forward(self, ids, mask):
        x = self.embed(ids)
        x, w1 = self.block_1(x, mask)
        x, w2 = self.block_2(x, mask)
        return self.head(x[:, 0, :]), w1, w2


def train_step(net, optimizer, criterion, ids, labels):
    input_mask = ids != PAD_ID  # True on real tokens
    optimizer.zero_grad()
    logits, _, _ = net(ids, input_mask)
    loss = criterion(logits, labels)
    loss.backward()
    optimizer.step()
    return loss.item()
