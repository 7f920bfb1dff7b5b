import torch
import torch.nn as nn

from glimpse import PointerGlimpse
from routing_env import DeliveryEnv


class RouteActor(nn.Module):
    def __init__(self, dim=128):
        super().__init__()
        self.dim = dim
        self.coord_emb = nn.Conv1d(2, dim, 1)
        self.demand_emb = nn.Conv1d(1, dim, 1)
        self.spare_emb = nn.Conv1d(1, dim, 1)
        self.cell = nn.LSTMCell(dim, dim)
        self.pointer = PointerGlimpse(dim)

    def embed(self, coords, feats):
        c = self.coord_emb(coords.transpose(1, 2)).transpose(1, 2)
        d = self.demand_emb(feats[:, :, 0:1].transpose(1, 2)).transpose(1, 2)
        r = self.spare_emb(feats[:, :, 1:2].transpose(1, 2)).transpose(1, 2)
        return c, c + d + r

    def step(self, coords, feats, here, hc, blocked):
        c, nodes = self.embed(coords, feats)
        idx = here.view(-1, 1, 1).expand(-1, 1, self.dim)
        h, cc = self.cell(c.gather(1, idx).squeeze(1), hc)
        return self.pointer(nodes, h, blocked), (h, cc)


@torch.no_grad()
def greedy_route(actor: RouteActor, env: DeliveryEnv, max_steps=200):
    coords, feats = env.reset()
    hc = (torch.zeros(env.batch, actor.dim), torch.zeros(env.batch, actor.dim))
    total = torch.zeros(env.batch)
    for _ in range(max_steps):
        probs, hc = actor.step(coords, feats, env.here, hc, env.forbidden())
        feats, reward, done = env.step(probs.argmax(dim=1))
        total += reward
        if bool(done.all()):
            break
    return total
