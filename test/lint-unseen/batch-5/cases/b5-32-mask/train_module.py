import torch
from torch import nn

from attention import GroupedAttention


class TinyLlama(nn.Module):
    def __init__(self, vocab, model_dim=512, num_heads=8, num_kv_heads=2, layers=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, model_dim)
        self.norms = nn.ModuleList([nn.RMSNorm(model_dim) for _ in range(layers)])
        self.attn = nn.ModuleList([GroupedAttention(model_dim, num_heads, num_kv_heads) for _ in range(layers)])
        self.out = nn.Linear(model_dim, vocab, bias=False)

    def forward(self, tokens, mask=None):
        x = self.emb(tokens)
        for norm, attn in zip(self.norms, self.attn):
            x = x + attn(norm(x), mask)
        return self.out(x)


def shared_step(model, batch, criterion):
    input_ids, pad_mask = batch["input_ids"], batch["mask"]
    inputs, targets = input_ids[:, :-1], input_ids[:, 1:]
    input_mask = pad_mask[:, :-1].bool()
    n = inputs.shape[1]
    causal = torch.tril(torch.ones(n, n, device=inputs.device, dtype=torch.bool))
    # (b, n, n), True where a query may attend to a key
    combined = causal.unsqueeze(0) & input_mask.unsqueeze(1) & input_mask.unsqueeze(2)
    logits = model(inputs, combined)
    return criterion(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
