import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from dtmem.data import WindowDataset, build_windows
from dtmem.models import DecisionTransformerPolicy


def train_dt(trajectories, state_dim: int, action_dim: int, context_length: int = 20, epochs: int = 30,
             lr: float = 1e-4, device: str = "cpu"):
    loader = DataLoader(WindowDataset(build_windows(trajectories, context_length, state_dim)),
                        batch_size=64, shuffle=True)
    model = DecisionTransformerPolicy(state_dim, action_dim, context_length).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    criterion = nn.CrossEntropyLoss(reduction="none")
    for _ in range(epochs):
        model.train()
        for batch in loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            mask = batch["mask"]  # (B, K) True on real steps
            logits = model(batch["returns_to_go"], batch["states"], batch["actions"], batch["timesteps"],
                           padding_mask=mask)
            raw = criterion(logits.reshape(-1, action_dim), batch["actions"].reshape(-1)).reshape_as(mask)
            loss = (raw * mask.float()).sum() / mask.float().sum().clamp_min(1.0)  # padding steps carry no loss
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
    return model
