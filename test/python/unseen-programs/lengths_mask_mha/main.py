# label: buggy
# why: sequence_mask is True inside each sequence; nn.MultiheadAttention's key_padding_mask wants True on the padding
import torch
import torch.nn as nn

from masks import sequence_mask


class SpeechEncoder(nn.Module):
    def __init__(self, n_mels=20, d_model=32, heads=4, vocab=30):
        super().__init__()
        self.frontend = nn.Linear(n_mels, d_model)
        self.tok = nn.Embedding(vocab, d_model, padding_idx=0)
        self.attn = nn.MultiheadAttention(d_model, heads, batch_first=True)

    def forward(self, ids, lengths):
        x = self.tok(ids)
        mask = sequence_mask(lengths, ids.size(1))
        y, _ = self.attn(x, x, x, key_padding_mask=mask)  # expect: ATT002
        return x + y


if __name__ == "__main__":
    torch.manual_seed(39)
    lengths = torch.tensor([5, 3, 6])
    ids = torch.randint(1, 30, (3, 8))
    ids[torch.arange(8)[None, :] >= lengths[:, None]] = 0
    enc = SpeechEncoder()
    enc.train()
    print(enc(ids, lengths).shape)
