# label: correct
# why: nn.MultiheadAttention in its default sequence-first layout; the decoder attends the encoder memory with the source padding mask (True = pad)
import torch
import torch.nn as nn

SRC_PAD = 1


class Decoder(nn.Module):
    def __init__(self, vocab=80, d=32, heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.cross = nn.MultiheadAttention(d, heads)
        self.out = nn.Linear(d, vocab)

    def forward(self, tgt_ids, memory, src_pad_mask):
        # tgt_ids: [T, B], memory: [S, B, d], src_pad_mask: [B, S]
        y = self.embed(tgt_ids)
        ctx, attn = self.cross(y, memory, memory, key_padding_mask=src_pad_mask)
        return self.out(y + ctx), attn


if __name__ == "__main__":
    torch.manual_seed(29)
    src = torch.tensor([[5, 6, 7, 8, 1, 1], [9, 10, 11, 12, 13, 14]])  # [B, S], 1 = pad
    src_embed = nn.Embedding(20, 32, padding_idx=SRC_PAD)
    memory = src_embed(src).transpose(0, 1)  # [S, B, d]
    tgt = torch.tensor([[2, 2], [30, 41], [17, 5]])  # [T, B]
    dec = Decoder()
    logits, attn = dec(tgt, memory, src == SRC_PAD)
    print(logits.shape, attn.shape, attn[0, :, 4:].sum().item())
