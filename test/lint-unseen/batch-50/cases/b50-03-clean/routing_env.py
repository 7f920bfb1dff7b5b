import torch


class DeliveryEnv:
    """Batched capacitated vehicle routing: node 0 is the depot, nodes 1..n are customers."""

    def __init__(self, n_customers, capacity, batch=1, device="cpu"):
        self.n = n_customers
        self.capacity = capacity
        self.batch = batch
        self.device = device

    def reset(self):
        self.coords = torch.rand(self.batch, self.n + 1, 2, device=self.device)
        orders = torch.randint(1, 10, (self.batch, self.n), dtype=torch.float, device=self.device)
        self.demand = torch.cat([torch.zeros(self.batch, 1, device=self.device), orders], dim=1)
        self.load = torch.full((self.batch,), float(self.capacity), device=self.device)
        self.here = torch.zeros(self.batch, dtype=torch.long, device=self.device)
        return self.coords, self.features()

    def features(self):
        spare = (self.load.unsqueeze(1) - self.demand).clamp(min=0)
        return torch.stack([self.demand, spare], dim=2)

    def forbidden(self):
        """(B, n+1) bool, True where the next move is NOT allowed."""
        blocked = self.demand == 0
        blocked[:, 1:] |= self.demand[:, 1:] > self.load.unsqueeze(1)
        blocked[:, 1:] |= (self.load == 0).unsqueeze(1)
        pending = self.demand[:, 1:].sum(dim=1) > 0
        # stay away from the depot only while standing on it with work left
        blocked[:, 0] = (self.here == 0) & pending
        finished = ~pending
        blocked[finished, 0] = False
        blocked[finished, 1:] = True
        return blocked

    def step(self, node):
        rows = torch.arange(self.batch, device=self.device)
        at_depot = node == 0
        drop = torch.minimum(self.demand[rows, node], self.load) * (~at_depot).float()
        self.demand[rows, node] -= drop
        self.load = torch.where(at_depot, torch.full_like(self.load, float(self.capacity)), self.load - drop)
        dist = (self.coords[rows, node] - self.coords[rows, self.here]).norm(dim=1)
        self.here = node
        done = (self.demand[:, 1:].sum(1) < 1e-4) & (self.here == 0)
        return self.features(), -dist, done
