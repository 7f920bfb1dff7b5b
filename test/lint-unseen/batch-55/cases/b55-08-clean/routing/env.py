import numpy as np
import torch

from .pointer import CityPointer, GraphEncoder


class Tours:
    """A batch of random TSP instances; `visited` is True on the cities already in the tour."""

    def __init__(self, n: int, batch: int, device: str = "cpu") -> None:
        self.n, self.batch, self.device = n, batch, torch.device(device)

    def reset(self, seed=None):
        rng = np.random.default_rng(seed)
        self.coords = torch.as_tensor(rng.uniform(0.0, 1.0, (self.batch, self.n, 2)), dtype=torch.float32, device=self.device)
        self.visited = torch.zeros(self.batch, self.n, dtype=torch.bool, device=self.device)
        self.last = torch.zeros(self.batch, dtype=torch.long, device=self.device)
        self.length = torch.zeros(self.batch, device=self.device)
        return self.coords

    def step(self, city):
        rows = torch.arange(self.batch, device=self.device)
        self.length += (self.coords[rows, city] - self.coords[rows, self.last]).norm(dim=-1)
        self.visited[rows, city] = True
        self.last = city

    def infeasible(self):
        return self.visited


@torch.no_grad()
def greedy_tour(encoder: GraphEncoder, pointer: CityPointer, env: Tours, seed=None):
    cities = encoder(env.reset(seed))
    rows = torch.arange(env.batch, device=env.device)
    for _ in range(env.n):
        probs = torch.softmax(pointer(cities, cities[rows, env.last], env.infeasible()), dim=-1)
        env.step(probs.argmax(dim=-1))
    return env.length
