# case: t34aa-09-clean
# modelled-on: NTT123/sketch-transformer https://github.com/NTT123/sketch-transformer/commit/33af6bf60758374b29205a861f6d162243388a8d
# label: correct
# class: clean
# pattern: an autoregressive Transformer over pen-stroke tokens (QuickDraw sketches), sequence-first: a square causal mask made as `(triu(ones) == 1).transpose(0, 1)` (True on and below the diagonal), turned into a float additive mask by `masked_fill(mask == 0, -inf)` then `masked_fill(mask == 1, 0.0)`, cached on the module and handed positionally to nn.TransformerEncoder built from ReZero encoder layers; the sampling script in another module rebuilds the mask through the model's private method for every prefix length and runs the whole prefix again (no key/value cache), and masks logits of the vocabulary with -inf before a nucleus sampler
# why: correct: the additive float mask is 0 where a key is at or before the query and -inf after it, PyTorch's convention for a float `mask` of TransformerEncoder (added to the scores); the diagonal is always 0, so no row is fully masked; the boolean intermediate is never handed to an API; generation recomputes the full prefix with a mask of its own length, so there is no cached-key alignment to get wrong; the -inf fills in the sampler are on vocabulary logits, not attention scores
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/NTT123/sketch-transformer https://github.com/NTT123/sketch-transformer/commit/33af6bf60758374b29205a861f6d162243388a8d model.py
import torch
import torch.nn as nn
from rezero.transformer import RZTXEncoderLayer
from torch.nn import TransformerEncoder


class SketchModel(nn.Module):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, nclass, dropout=0.5):
        super().__init__()
        self.src_mask = None
        layer = RZTXEncoderLayer(ninp, nhead, nhid, dropout)
        self.transformer_encoder = TransformerEncoder(layer, nlayers)
        self.value_embed = nn.Embedding(ntoken + 1, ninp)
        self.pos_embed = nn.Embedding(256, ninp)
        self.class_embed = nn.Embedding(nclass, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def _generate_square_subsequent_mask(self, sz):
        allowed = (torch.triu(torch.ones(sz, sz)) == 1).transpose(0, 1)
        mask = allowed.float()
        mask = mask.masked_fill(mask == 0, float("-inf"))
        mask = mask.masked_fill(mask == 1, float(0.0))
        return mask

    def init_weights(self):
        r = 0.1
        self.value_embed.weight.data.uniform_(-r, r)
        self.pos_embed.weight.data.uniform_(-r, r)
        self.decoder.bias.data.zero_()
        self.decoder.weight.data.uniform_(-r, r)

    def embed(self, src):
        # src: (T, B, 3) = (token, position, class); the class token goes first
        v, p, c = src[1:, :, 0], src[1:, :, 1], src[:1, :, 2]
        return torch.cat([self.class_embed(c), self.value_embed(v) + self.pos_embed(p)], dim=0)

    def forward(self, src):
        if self.src_mask is None or self.src_mask.size(0) != len(src):
            self.src_mask = self._generate_square_subsequent_mask(len(src)).to(src.device)
        out = self.transformer_encoder(self.embed(src), self.src_mask)
        return self.decoder(out)


def create_model(args):
    device = torch.device(args.device)
    model = SketchModel(
        ntoken=args.vocab_size,
        ninp=args.embed_dim,
        nhead=args.num_att_heads,
        nhid=4 * args.embed_dim,
        nlayers=args.num_transformer_layers,
        nclass=args.num_sketch_classes,
        dropout=args.dropout_rate,
    ).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
    return model, device, optimizer
