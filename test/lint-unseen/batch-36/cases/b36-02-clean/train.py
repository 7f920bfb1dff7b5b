import torch
import torch.nn.functional as F

from model import DecisionTransformer


def train_step(model: DecisionTransformer, optim, batch, device="cpu", clip_grad=0.25):
    states, actions, returns, time_steps, mask = [b.to(device) for b in batch]
    # True for the padded steps, which key_padding_mask must ignore
    padding_mask = ~mask.to(torch.bool)

    predicted_actions = model(
        states=states,
        actions=actions,
        returns_to_go=returns,
        time_steps=time_steps,
        padding_mask=padding_mask,
    )
    loss = F.mse_loss(predicted_actions, actions.detach(), reduction="none")
    loss = (loss * mask.unsqueeze(-1)).mean()

    optim.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), clip_grad)
    optim.step()
    return loss.item()
