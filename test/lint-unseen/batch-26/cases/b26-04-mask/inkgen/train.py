import torch

from inkgen.model import InkTransformer
from inkgen.strokes import to_sequence_tensor
from inkgen.text_tokens import tokenize_all


def train(texts, samples, steps=1000, batch_size=32):
    seq, seq_mask = to_sequence_tensor(samples)
    tokens, tokens_mask = tokenize_all(texts)
    model = InkTransformer(max_len=max(seq.shape[1], tokens.shape[1]))
    optim = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(steps):
        idx = torch.randint(0, len(seq), (batch_size,))
        cut = int(torch.randint(1, seq.shape[1] - 1, (1,)))
        params = model(tokens[idx], tokens_mask[idx], seq[idx, :cut], seq_mask[idx, :cut])
        target = seq[idx, cut : cut + 1]
        weight = seq_mask[idx, cut : cut + 1].float()
        loss = (((params[..., :2] - target[..., :2]) ** 2).sum(-1) * weight).sum() / weight.sum().clamp(min=1)
        optim.zero_grad()
        loss.backward()
        optim.step()
