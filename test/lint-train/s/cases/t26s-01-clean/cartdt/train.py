import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from cartdt.agent import SequencePolicy
from cartdt.collate import pad_episodes


def fit(policy: SequencePolicy, episodes, epochs=10, batch_size=16, lr=1e-3):
    loader = DataLoader(episodes, batch_size=batch_size, shuffle=True, collate_fn=pad_episodes)
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    for _ in range(epochs):
        for states, actions, _ in loader:
            logits = policy(states)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), actions.reshape(-1).long(), ignore_index=-1)
            opt.zero_grad()
            loss.backward()
            opt.step()
