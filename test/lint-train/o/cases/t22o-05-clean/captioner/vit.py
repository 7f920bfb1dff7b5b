# case: t22o-05-clean
# modelled-on: abdulvajid1/Image-Caption-Generation-VIT-From-Scratch https://github.com/abdulvajid1/Image-Caption-Generation-VIT-From-Scratch/commit/2e7daefca8c1261c4deadab7716dec30e9a43bd4
# label: correct
# class: clean
# pattern: a ViT captioner that concatenates image patches and caption tokens into one sequence; masking.py builds a prefix-LM keep mask (tril(ones), with the patch block set to 1), registered as a buffer; the attention layer hands nn.MultiheadAttention attn_mask = mask[:T, :T] == 0; the training loss masks padded caption tokens with masked_fill(~attn_mask.to(bool), -100)
# why: correct: nn.MultiheadAttention's boolean attn_mask is True where attention is not allowed, and keep == 0 is True exactly where the prefix-LM mask forbids it (future text); the caption attn_mask of the batch is a 1 = real token mask, so ~ marks the padding whose labels become the ignore index
# looks-like: ATT002
# source: https://github.com/abdulvajid1/Image-Caption-Generation-VIT-From-Scratch https://github.com/abdulvajid1/Image-Caption-Generation-VIT-From-Scratch/commit/2e7daefca8c1261c4deadab7716dec30e9a43bd4 vit.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from .masking import prefix_causal_mask


class PrefixAttention(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.num_patches = (args.img_size // args.patch_size) ** 2
        mask = prefix_causal_mask(self.num_patches, args.context_len)
        # nn.MultiheadAttention takes (seq, seq) or (batch * heads, seq, seq)
        self.register_buffer("mask", mask[0, 0])
        self.attn = nn.MultiheadAttention(embed_dim=args.latent_dim, num_heads=args.num_heads, dropout=0.1, bias=False, batch_first=True)

    def forward(self, x):
        seq_len = x.size(1)
        attn_mask = self.mask[:seq_len, :seq_len] == 0
        out, _ = self.attn(x, x, x, attn_mask=attn_mask)
        return out


class Block(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.norm1 = nn.LayerNorm(args.latent_dim)
        self.attn = PrefixAttention(args)
        self.norm2 = nn.LayerNorm(args.latent_dim)
        self.mlp = nn.Sequential(nn.Linear(args.latent_dim, 4 * args.latent_dim), nn.GELU(), nn.Linear(4 * args.latent_dim, args.latent_dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class Captioner(nn.Module):
    def __init__(self, args, patch_embed: nn.Module):
        super().__init__()
        self.args = args
        self.patch_embed = patch_embed
        self.tok_embed = nn.Embedding(args.num_tokens, args.latent_dim)
        self.blocks = nn.Sequential(*[Block(args) for _ in range(args.num_layers)])
        self.norm = nn.LayerNorm(args.latent_dim)
        self.head = nn.Linear(args.latent_dim, args.num_tokens)
        self.patch_len = (args.img_size // args.patch_size) ** 2

    def forward(self, img, caption_tokens=None, attn_mask=None):
        x = self.patch_embed(img)
        if caption_tokens is not None:
            x = torch.concat((x, self.tok_embed(caption_tokens)), dim=1)
        x = self.head(self.norm(self.blocks(x)))
        loss = None
        if caption_tokens is not None:
            logits = x[:, self.patch_len - 1 : -1, :].reshape(-1, self.args.num_tokens)
            targets = caption_tokens.masked_fill(~attn_mask.to(bool), value=-100)
            loss = F.cross_entropy(logits, targets.view(-1))
        return x, loss
