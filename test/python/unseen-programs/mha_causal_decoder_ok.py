# label: correct
# why: a decoder-only LM on nn.MultiheadAttention (sequence-first) with a -inf upper-triangular attn_mask and key_padding_mask from the ids
import torch
import torch.nn as nn

PAD, BOS = 0, 1


def causal_mask(size):
    return torch.triu(torch.full((size, size), float("-inf")), diagonal=1)


class TinyLM(nn.Module):
    def __init__(self, vocab=64, d_model=32, nhead=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.self_attn = nn.MultiheadAttention(d_model, nhead)
        self.lm_head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        # ids: [T, B] (sequence first)
        x = self.embed(ids)
        mask = causal_mask(ids.size(0))
        h, _ = self.self_attn(x, x, x, attn_mask=mask, key_padding_mask=(ids == PAD).t())
        return self.lm_head(x + h)


if __name__ == "__main__":
    torch.manual_seed(16)
    batch = torch.tensor([
        [BOS, 5, 9, 22, 8, PAD, PAD],
        [BOS, 31, 4, 4, 17, 40, 2],
    ]).t()
    model = TinyLM()
    logits = model(batch)
    targets = batch[1:]
    loss = nn.functional.cross_entropy(logits[:-1].reshape(-1, 64), targets.reshape(-1), ignore_index=PAD)
    loss.backward()
    print("loss", loss.item())
