import torch
import torch.nn.functional as F

from aspect.model import GlobalAttentionTagger

PAD = 3  # tag id used for padding positions


def train_step(model: GlobalAttentionTagger, optimizer, batch):
    targets = batch["targets"]  # (batch, seq), PAD at padded positions
    mask = targets < PAD  # True on real tokens
    targets = targets * mask.long()
    logits = model(batch["review"], batch["lengths"], mask=mask.unsqueeze(2).float())
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="none")
    loss = (loss * mask.reshape(-1).float()).sum() / mask.sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
