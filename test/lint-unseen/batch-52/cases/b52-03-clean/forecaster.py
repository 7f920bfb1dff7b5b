import torch

from blocks import GroupedQueryAttention, LatentAttention, RMSNorm, RotaryTable


class EncoderBlock(torch.nn.Module):
    def __init__(self, width, heads, latent=None):
        super().__init__()
        self.latent = latent is not None
        if self.latent:
            self.attention = LatentAttention(width, latent, heads)
        else:
            self.attention = GroupedQueryAttention(width, heads, group=4)
        self.ff_in = torch.nn.Conv1d(width, width, kernel_size=1)
        self.ff_out = torch.nn.Conv1d(width, width, kernel_size=1)
        self.act = torch.nn.GELU()
        self.norm0 = RMSNorm(width)
        self.norm1 = RMSNorm(width)
        self.drop = torch.nn.Dropout(0.2)

    def forward(self, x):  # (batch, variables, width)
        a = self.attention(x) if self.latent else self.attention(x, x, x)
        x = self.norm0(x + self.drop(a))
        y = self.ff_out(self.drop(self.act(self.ff_in(x.transpose(1, 2))))).transpose(1, 2)
        return self.norm1(x + y)


class VariableTokenForecaster(torch.nn.Module):
    """Each input variable's history becomes one token; attention mixes variables."""

    def __init__(self, input_len, output_len, n_in, n_out, size="m", latent=None):
        super().__init__()
        width = {"s": 32, "m": 64, "l": 128}[size]
        heads = 8
        self.embed = torch.nn.Linear(input_len, width)
        self.rotary = RotaryTable(n_in, width)
        self.blocks = torch.nn.Sequential(EncoderBlock(width, heads, latent), EncoderBlock(width, heads, latent))
        self.mix = torch.nn.Conv1d(n_in, n_out, kernel_size=1)
        self.head = torch.nn.ModuleList([torch.nn.Linear(width, output_len) for _ in range(n_out)])

    def forward(self, x):  # (batch, input_len, n_in) -> (batch, output_len, n_out)
        x = self.embed(x.permute(0, 2, 1))
        x = self.blocks(self.rotary(x))
        x = self.mix(x)
        y = torch.stack([head(x[:, i]) for i, head in enumerate(self.head)], dim=1)
        return y.permute(0, 2, 1)
