import torch
import torch.nn as nn
import torch.nn.functional as F

from .encode import TextEncoder


class MaskedLM(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.encoder = TextEncoder(vocab)
        self.head = nn.Linear(256, vocab)

    def forward(self, input_ids, attention_mask):
        return self.head(self.encoder(input_ids, attention_mask))


def mask_tokens(input_ids, mask_id, p=0.15):
    chosen = (torch.rand_like(input_ids, dtype=torch.float) < p) & (input_ids != 0)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, -100))
    return torch.where(chosen, torch.full_like(input_ids, mask_id), input_ids), labels


def train_step(model, opt, input_ids, mask_id):
    attention_mask = (input_ids != 0).float()
    masked, labels = mask_tokens(input_ids, mask_id)
    logits = model(masked, attention_mask)
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1), ignore_index=-100)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()
