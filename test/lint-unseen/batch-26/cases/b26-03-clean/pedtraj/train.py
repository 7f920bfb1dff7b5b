import torch
import torch.nn.functional as F

from pedtraj.functional import subsequent_mask


def train_step(model, optim, batch, mean, std, device):
    obs = (batch["src"][:, 1:, 2:4].to(device) - mean) / std
    fut = (batch["trg"][:, :-1, 2:4].to(device) - mean) / std
    fut = torch.cat((fut, torch.zeros(fut.shape[0], fut.shape[1], 1, device=device)), -1)
    start = torch.tensor([0.0, 0.0, 1.0], device=device).view(1, 1, 3).repeat(fut.shape[0], 1, 1)
    dec_inp = torch.cat((start, fut), 1)
    src_att = torch.ones((obs.shape[0], 1, obs.shape[1])).to(device)
    trg_att = subsequent_mask(dec_inp.shape[1]).repeat(dec_inp.shape[0], 1, 1).to(device)
    pred = model(obs, dec_inp, src_att, trg_att)
    gt = ((batch["trg"][:, :, 2:4].to(device) - mean) / std).reshape(-1, 2)
    loss = F.pairwise_distance(pred[:, :, 0:2].reshape(-1, 2), gt).mean() + pred[:, :, 2].abs().mean()
    optim.zero_grad()
    loss.backward()
    optim.step()
    return loss.item()


@torch.no_grad()
def predict(model, obs, n_future, device):
    src_att = torch.ones((obs.shape[0], 1, obs.shape[1])).to(device)
    dec_inp = torch.tensor([0.0, 0.0, 1.0], device=device).view(1, 1, 3).repeat(obs.shape[0], 1, 1)
    for _ in range(n_future):
        trg_att = subsequent_mask(dec_inp.shape[1]).repeat(dec_inp.shape[0], 1, 1).to(device)
        out = model(obs, dec_inp, src_att, trg_att)
        dec_inp = torch.cat((dec_inp, out[:, -1:, :]), 1)
    return dec_inp[:, 1:, 0:2]
