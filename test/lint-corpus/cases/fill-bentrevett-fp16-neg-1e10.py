# case: fill-bentrevett-fp16-neg-1e10
# modelled-on: bentrevett/pytorch-seq2seq https://github.com/bentrevett/pytorch-seq2seq/issues/191
# label: buggy
# pattern: the tutorial's attention layer (masked_fill(mask == 0, -1e10)) reused in a training step that runs under torch.autocast with float16
# why: under fp16 autocast the energy tensor is half precision and -1e10 cannot be represented (max 65504): masked_fill raises "value cannot be converted to type at::Half without overflow"
import torch
import torch.nn as nn


class MultiHeadAttentionLayer(nn.Module):
    def __init__(self, hid_dim: int, n_heads: int, dropout: float):
        super().__init__()
        self.hid_dim = hid_dim
        self.n_heads = n_heads
        self.head_dim = hid_dim // n_heads
        self.fc_q = nn.Linear(hid_dim, hid_dim)
        self.fc_k = nn.Linear(hid_dim, hid_dim)
        self.fc_v = nn.Linear(hid_dim, hid_dim)
        self.fc_o = nn.Linear(hid_dim, hid_dim)
        self.dropout = nn.Dropout(dropout)
        self.scale = self.head_dim ** 0.5

    def forward(self, query, key, value, mask=None):
        b = query.shape[0]
        Q = self.fc_q(query).view(b, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        K = self.fc_k(key).view(b, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        V = self.fc_v(value).view(b, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        energy = torch.matmul(Q, K.permute(0, 1, 3, 2)) / self.scale
        if mask is not None:
            energy = energy.masked_fill(mask == 0, -1e10)  # expect: ATT007
        attention = torch.softmax(energy, dim=-1)
        x = torch.matmul(self.dropout(attention), V).permute(0, 2, 1, 3).contiguous()
        return self.fc_o(x.view(b, -1, self.hid_dim)), attention


def train_step(model: nn.Module, batch, optimizer: torch.optim.Optimizer, criterion, scaler: torch.cuda.amp.GradScaler):
    src, trg = batch
    optimizer.zero_grad()
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        output, _ = model(src, trg[:, :-1])
        loss = criterion(output.contiguous().view(-1, output.shape[-1]), trg[:, 1:].contiguous().view(-1))
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    return loss.item()
