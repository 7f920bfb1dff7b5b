import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from digits.vit import DigitViT
from settings import BATCH, EPOCHS, LR


def loaders():
    tf = transforms.ToTensor()
    train = datasets.MNIST("data", train=True, download=True, transform=tf)
    test = datasets.MNIST("data", train=False, download=True, transform=tf)
    return DataLoader(train, batch_size=BATCH, shuffle=True), DataLoader(test, batch_size=BATCH)


def run():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = DigitViT().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    loss_fn = nn.CrossEntropyLoss()
    train_dl, test_dl = loaders()
    for epoch in range(EPOCHS):
        model.train()
        for images, labels in train_dl:
            opt.zero_grad()
            loss = loss_fn(model(images.to(device)), labels.to(device))
            loss.backward()
            opt.step()
        model.eval()
        right = total = 0
        with torch.no_grad():
            for images, labels in test_dl:
                right += (model(images.to(device)).argmax(1).cpu() == labels).sum().item()
                total += labels.numel()
        print(f"epoch {epoch + 1}: loss {loss.item():.4f} acc {right / total:.3f}")


if __name__ == "__main__":
    run()
