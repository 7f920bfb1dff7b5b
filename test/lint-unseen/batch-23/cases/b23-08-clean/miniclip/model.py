# case: b23-08-clean
# modelled-on: mirajull/Mini-CLIP-from-Scratch https://github.com/mirajull/Mini-CLIP-from-Scratch/commit/5a3b3c31c8e2df7fb55ad50c1d18623b28f932bd
# label: correct
# class: clean
# pattern: a small CLIP: the collate function in another module right-pads captions and returns their lengths; the text encoder builds its padding mask as arange(L) >= lengths.unsqueeze(1) and hands it to nn.TransformerEncoder(batch_first=True) as src_key_padding_mask, then reads the first token; the contrastive loss scales cosine similarities by exp(logit_scale) clamped at 100, and a hard-negative term fills the diagonal of the similarity matrix with -inf before a top-k
# why: correct: src_key_padding_mask is True where a key is ignored, and positions at or past a caption's length are exactly the padding, so the mask has the right polarity; the first position is always a real token, so no row is fully masked; the -inf on the diagonal only removes the positive pair from a top-k over negatives (no softmax follows it), and the logit scale is CLIP's learnt temperature, not an attention scale
# looks-like: ATT002, ATT003, ATT007
# source: https://github.com/mirajull/Mini-CLIP-from-Scratch https://github.com/mirajull/Mini-CLIP-from-Scratch/commit/5a3b3c31c8e2df7fb55ad50c1d18623b28f932bd src/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class TextEncoder(nn.Module):
    def __init__(self, vocab_size: int, context_length: int, embed_dim=256, width=512, layers=4, heads=8, mlp=2048, dropout=0.1):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, width)
        self.pos = nn.Parameter(torch.zeros(1, context_length, width))
        layer = nn.TransformerEncoderLayer(
            d_model=width, nhead=heads, dim_feedforward=mlp, dropout=dropout, activation="gelu", batch_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers=layers)
        self.ln = nn.LayerNorm(width)
        self.proj = nn.Linear(width, embed_dim)

    def forward(self, tokens, lengths):
        positions = torch.arange(tokens.size(1), device=tokens.device).unsqueeze(0).expand(tokens.size(0), -1)
        pad_mask = positions >= lengths.unsqueeze(1)  # True on padding
        x = self.tok(tokens) + self.pos[:, : tokens.size(1), :]
        x = self.encoder(x, src_key_padding_mask=pad_mask)
        return F.normalize(self.proj(self.ln(x)[:, 0, :]), dim=-1)


class MiniCLIP(nn.Module):
    def __init__(self, image_encoder: nn.Module, text_encoder: TextEncoder, temperature=0.07, max_scale=100.0):
        super().__init__()
        self.image_encoder = image_encoder
        self.text_encoder = text_encoder
        self.logit_scale = nn.Parameter(torch.log(torch.tensor(1 / temperature)))
        self.max_scale = max_scale

    def forward(self, images, tokens, lengths):
        img = self.image_encoder(images)
        txt = self.text_encoder(tokens, lengths)
        scale = torch.clamp(self.logit_scale.exp(), max=self.max_scale)
        per_image = scale * img @ txt.t()
        return per_image, per_image.t()


def hard_negative_loss(sim: torch.Tensor, top_k: int, margin: float) -> torch.Tensor:
    diag = torch.eye(sim.size(0), device=sim.device, dtype=torch.bool)
    negatives = sim.masked_fill(diag, float("-inf"))
    hardest, _ = torch.topk(negatives, k=top_k, dim=1)
    return F.relu(margin + hardest - sim.diag().unsqueeze(1)).mean()


def clip_loss(per_image, per_text, top_k=5, margin=0.1, weight=0.1):
    labels = torch.arange(per_image.size(0), device=per_image.device)
    loss = (F.cross_entropy(per_image, labels) + F.cross_entropy(per_text, labels)) / 2
    if per_image.size(0) > 1:
        k = min(top_k, per_image.size(0) - 1)
        loss = loss + weight * (hard_negative_loss(per_image, k, margin) + hard_negative_loss(per_text, k, margin)) / 2
    return loss
