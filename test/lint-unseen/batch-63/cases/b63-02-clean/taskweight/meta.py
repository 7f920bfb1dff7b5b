import torch
from torch import autograd

from .attention import task_attention


def grad_norm(grads):
    return torch.sqrt(sum((g ** 2).sum() for g in grads if g is not None))


class TaskWeightedUpdate:
    def __init__(self, learner, n_tasks, lr=1e-3):
        self.learner = learner
        self.n_tasks = n_tasks
        self.attend = task_attention(n_tasks=n_tasks)
        self.opt = torch.optim.Adam(list(learner.parameters()) + list(self.attend.parameters()), lr=lr)

    def statistics(self, losses, accuracy_ratio, loss_ratio):
        norms = []
        for loss in losses:
            grads = autograd.grad(loss, self.learner.parameters(), allow_unused=True, retain_graph=True)
            norms.append(grad_norm(grads))
        rows = [losses.detach(), torch.stack(norms).detach(), accuracy_ratio, loss_ratio]
        return torch.stack(rows).unsqueeze(0)  # (1, 4, n_tasks)

    def step(self, losses, accuracy_ratio, loss_ratio):
        self.opt.zero_grad()
        weights = self.attend(self.statistics(losses, accuracy_ratio, loss_ratio)).reshape(self.n_tasks)
        (weights * losses).sum().backward()
        self.opt.step()
        return weights
