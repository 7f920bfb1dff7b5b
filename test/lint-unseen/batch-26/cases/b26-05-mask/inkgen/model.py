# case: b26-05-mask
# modelled-on: TobiasJacob/handwriting-transformer https://github.com/TobiasJacob/handwriting-transformer/commit/c95a6bc8eb5b5043c5f1e6d3d28c4f0229abe4fa
# label: correct
# class: fixed
# pattern: a text-to-handwriting model: the tokenizer module and the stroke module each return a bool mask that is True on real characters / pen points (zeros, then a slice set to 1); the model concatenates the text mask and the mask of the strokes generated so far and hands it to encoder blocks built on nn.MultiheadAttention(batch_first=True) as key_padding_mask=~mask (the fixed form of b26-04-mask)
# why: correct: nn.MultiheadAttention ignores the keys where a boolean key_padding_mask is True; the masks are True on real characters and points, so ~mask is True exactly on the padding; this is the author's fix of the inverted mask
# looks-like: ATT002
# source: https://github.com/TobiasJacob/handwriting-transformer https://github.com/TobiasJacob/handwriting-transformer/commit/c95a6bc8eb5b5043c5f1e6d3d28c4f0229abe4fa handwtransformer/offlinerl/model.py
import torch


class EncoderBlock(torch.nn.Module):
    def __init__(self, dim, heads, ff_dim, dropout=0.0):
        super().__init__()
        self.self_attn = torch.nn.MultiheadAttention(dim, heads, batch_first=True)
        self.mlp = torch.nn.Sequential(
            torch.nn.Linear(dim, ff_dim), torch.nn.Dropout(dropout), torch.nn.ReLU(inplace=True), torch.nn.Linear(ff_dim, dim)
        )
        self.norm1 = torch.nn.LayerNorm(dim)
        self.norm2 = torch.nn.LayerNorm(dim)
        self.dropout = torch.nn.Dropout(dropout)

    def forward(self, x, mask=None):
        attn_out, _ = self.self_attn(x, x, x, key_padding_mask=~mask)
        x = self.norm1(x + self.dropout(attn_out))
        return self.norm2(x + self.dropout(self.mlp(x)))


class InkTransformer(torch.nn.Module):
    def __init__(self, max_len: int, dim: int = 64):
        super().__init__()
        self.char_emb = torch.nn.Embedding(256, dim)
        self.char_pos = torch.nn.Embedding(max_len, dim)
        self.point_emb = torch.nn.Linear(4, dim)
        self.point_pos = torch.nn.Embedding(max_len, dim)
        self.text_block = EncoderBlock(dim, 8, 128)
        self.joint1 = EncoderBlock(dim, 8, 128)
        self.joint2 = EncoderBlock(dim, 8, 128)
        self.out = torch.nn.Linear(dim, 6)

    def forward(self, text, text_mask, points, points_mask):
        x = self.char_emb(text) + self.char_pos(torch.arange(text.shape[1], device=text.device))
        x = self.text_block(x, text_mask)
        p = self.point_emb(points) + self.point_pos(torch.arange(points.shape[1], device=text.device))
        joint = torch.concat((x, p), dim=1)
        joint_mask = torch.concat((text_mask, points_mask), dim=1)
        z = self.joint1(joint, joint_mask)
        z = self.joint2(z, joint_mask)
        return self.out(z[:, -1:])
