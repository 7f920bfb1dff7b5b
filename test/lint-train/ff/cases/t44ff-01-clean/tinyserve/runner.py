import torch
from torch.nn.utils.rnn import pad_sequence


class Runner:
    def __init__(self, model, pad_id=0):
        self.model = model.eval()
        self.pad_id = pad_id
        self.device = next(model.parameters()).device

    @torch.no_grad()
    def step(self, batch):
        if not batch:
            return []
        if any(len(seq) == 0 for seq in batch):
            raise ValueError("empty sequence")
        ids = pad_sequence([torch.tensor(s, dtype=torch.long) for s in batch], batch_first=True,
                           padding_value=self.pad_id).to(self.device)
        n, width = ids.shape
        lengths = torch.tensor([len(s) for s in batch], dtype=torch.long, device=self.device)
        slots = torch.arange(width, device=self.device)
        pad_mask = slots[None, :] >= lengths[:, None]
        logits = self.model(ids, pad_mask=pad_mask)
        return logits[torch.arange(n, device=self.device), lengths - 1, :]
