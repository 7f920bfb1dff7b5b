import torch


def discounted_returns(rewards, gamma=1.0):
    out = torch.zeros_like(rewards)
    running = 0.0
    for t in range(rewards.size(0) - 1, -1, -1):
        running = rewards[t] + gamma * running
        out[t] = running
    return out


def pad_episodes(batch):
    """Right-pads every episode of the batch to the longest one: states with 0, actions with -1."""
    longest = max(len(actions) for _, actions, _ in batch)
    states_b, actions_b, returns_b = [], [], []
    for states, actions, rewards in batch:
        rtg = discounted_returns(rewards)
        missing = longest - len(states)
        if missing > 0:
            states = torch.cat([states, torch.empty(missing, states.size(1)).fill_(0)])
            actions = torch.cat([actions, torch.ones(missing) * -1])
            rtg = torch.cat([rtg, torch.zeros(missing)])
        states_b.append(states)
        actions_b.append(actions)
        returns_b.append(rtg)
    return torch.stack(states_b), torch.stack(actions_b), torch.stack(returns_b)
