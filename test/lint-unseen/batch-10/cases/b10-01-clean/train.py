import torch

from model import TinyGPT


def train_step(model, optimizer, x, y):
    model.train()
    state = model.initial_state(x.size(0))  # a fresh, empty cache for every batch
    _, _, loss = model(x, state, targets=y)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    model = TinyGPT()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    data = torch.randint(0, 256, (8, 65))
    print(train_step(model, opt, data[:, :-1], data[:, 1:]))
    model.eval()
    print(model.generate(data[:1, :8], 4).shape)
