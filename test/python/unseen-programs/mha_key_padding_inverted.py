# label: buggy
# why: nn.MultiheadAttention's key_padding_mask is True where a key is ignored; passing the 1-for-real attention mask hides every real token
import torch
import torch.nn as nn

PAD = 0


class SentenceEncoder(nn.Module):
    def __init__(self, vocab_size=1000, d_model=64, nhead=4):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model, padding_idx=PAD)
        self.attn = nn.MultiheadAttention(d_model, nhead, batch_first=True)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, input_ids, attention_mask):
        x = self.embedding(input_ids)
        out, _ = self.attn(x, x, x, key_padding_mask=attention_mask.bool())  # expect: ATT002
        return self.norm(x + out)


def collate(sequences):
    width = max(len(s) for s in sequences) + 2
    ids = torch.full((len(sequences), width), PAD, dtype=torch.long)
    for i, s in enumerate(sequences):
        ids[i, : len(s)] = torch.tensor(s)
    return ids, (ids != PAD).long()


if __name__ == "__main__":
    torch.manual_seed(14)
    ids, mask = collate([[5, 17, 256, 9], [44, 3], [7, 7, 81, 600, 12, 31]])
    model = SentenceEncoder()
    model.eval()
    with torch.no_grad():
        h = model(ids, mask)
    print(h.shape)
