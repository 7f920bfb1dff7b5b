import torch
from layers import MultiHeadAttention


def main():
    model = MultiHeadAttention(512, 8).cuda().half()
    x = torch.randn(8, 100, 512, device="cuda").half()
    mask = torch.ones(8, 100, device="cuda")
    mask[:, 80:] = 0
    out = model(x, mask)
    print(out.float().abs().mean())


if __name__ == "__main__":
    main()
