# case: mask-decision-transformer-batch-keep-mask
# modelled-on: kzl/decision-transformer https://github.com/kzl/decision-transformer/issues/30
# label: correct
# pattern: get_batch (experiment.py) left-pads each trajectory and builds its mask with numpy, zeros for the padding then ones for the real steps, which the training loop hands to the model (decision_transformer/model.py); there it is stacked three times for the interleaved return/state/action tokens and passed as GPT2Model's attention_mask, with no triangular mask anywhere in the workspace
# why: the reporter of #30 expected a triangular mask; the author pointed out that attention_mask is GPT-2's padding mask (1 = attend, 0 = padding) and the causal mask is applied inside GPT2Model, so a 0/1 mask that is 1 at the real steps is the right polarity
# looks-like: ATT002, ATT008
import numpy as np
import torch

from decision_transformer.model import DecisionTransformer


def get_batch(trajectories, state_dim, act_dim, max_len, batch_size=256, max_ep_len=1000, device='cpu'):
    batch_inds = np.random.choice(np.arange(len(trajectories)), size=batch_size, replace=True)
    s, a, rtg, timesteps, mask = [], [], [], [], []
    for i in batch_inds:
        traj = trajectories[int(i)]
        si = np.random.randint(0, traj['rewards'].shape[0] - 1)
        s.append(traj['observations'][si:si + max_len].reshape(1, -1, state_dim))
        a.append(traj['actions'][si:si + max_len].reshape(1, -1, act_dim))
        timesteps.append(np.arange(si, si + s[-1].shape[1]).reshape(1, -1))
        timesteps[-1][timesteps[-1] >= max_ep_len] = max_ep_len - 1
        rtg.append(np.cumsum(traj['rewards'][si:][::-1])[::-1][:s[-1].shape[1]].reshape(1, -1, 1))

        # padding and state + reward normalization
        tlen = s[-1].shape[1]
        s[-1] = np.concatenate([np.zeros((1, max_len - tlen, state_dim)), s[-1]], axis=1)
        a[-1] = np.concatenate([np.ones((1, max_len - tlen, act_dim)) * -10., a[-1]], axis=1)
        rtg[-1] = np.concatenate([np.zeros((1, max_len - tlen, 1)), rtg[-1]], axis=1) / 1000.
        timesteps[-1] = np.concatenate([np.zeros((1, max_len - tlen)), timesteps[-1]], axis=1)
        mask.append(np.concatenate([np.zeros((1, max_len - tlen)), np.ones((1, tlen))], axis=1))

    s = torch.from_numpy(np.concatenate(s, axis=0)).to(dtype=torch.float32, device=device)
    a = torch.from_numpy(np.concatenate(a, axis=0)).to(dtype=torch.float32, device=device)
    rtg = torch.from_numpy(np.concatenate(rtg, axis=0)).to(dtype=torch.float32, device=device)
    timesteps = torch.from_numpy(np.concatenate(timesteps, axis=0)).to(dtype=torch.long, device=device)
    mask = torch.from_numpy(np.concatenate(mask, axis=0)).to(device=device)
    return s, a, rtg, timesteps, mask


def train(trajectories, state_dim, act_dim, max_len=20, steps=10000, device='cpu'):
    model = DecisionTransformer(state_dim, act_dim, hidden_size=128, max_length=max_len, n_layer=3, n_head=1)
    model = model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=1e-4)
    for _ in range(steps):
        states, actions, rtg, timesteps, attention_mask = get_batch(trajectories, state_dim, act_dim, max_len)
        action_preds = model(states, actions, rtg, timesteps, attention_mask=attention_mask)
        action_preds = action_preds.reshape(-1, act_dim)[attention_mask.reshape(-1) > 0]
        action_target = actions.reshape(-1, act_dim)[attention_mask.reshape(-1) > 0]
        loss = torch.mean((action_preds - action_target) ** 2)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return model
