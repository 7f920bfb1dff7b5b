import torch
import torch.nn.functional as F

from recsys.attention import Encoder
from recsys.dataset import MASK, PAD


def train_step(model: Encoder, batch, optimizer, device="cpu"):
    source = batch["source"].to(device)
    target = batch["target"].to(device)
    source_mask = batch["source_mask"].to(device)
    optimizer.zero_grad()
    logits = model(source, source_mask)  # (B, vocab, L)
    loss = F.cross_entropy(logits, target, ignore_index=PAD, reduction="none")
    cloze = (source == MASK).float()
    loss = (loss * cloze).sum() / cloze.sum().clamp(min=1.0)
    loss.backward()
    optimizer.step()
    return loss.item()
