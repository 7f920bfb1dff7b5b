# case: b60-02-clean
# modelled-on: kuanmol/image-caption-transformer https://github.com/kuanmol/image-caption-transformer/commit/5a5b77c908f7e89145cbc299c5c2db90dfcc76e3
# label: correct
# class: clean
# pattern: an image captioner on nn.TransformerEncoder / nn.TransformerDecoder (batch_first) over one pre-extracted image feature (a folder: the collate function right-pads captions with 0; the model projects the feature to a one-token memory, embeds the caption scaled by sqrt(d_model) plus learned positions, and decodes with `tgt_mask = triu(ones(n, n), diagonal=1).bool()`; beam search re-runs the decoder on each beam's full prefix, rebuilding the mask for its length)
# why: correct: for a boolean tgt_mask True means "not allowed", and triu with diagonal=1 is True exactly on future positions, so each caption token sees itself and earlier tokens; the padding is on the right, after every real token, so no real query ever looks at a pad (the causal mask already hides it) and the padded targets are left out of the loss; the decoder scales by the per-head width itself; the sqrt(d_model) factor multiplies the embeddings, not the attention scores
# looks-like: ATT002, ATT004, ATT008
# source: https://github.com/kuanmol/image-caption-transformer https://github.com/kuanmol/image-caption-transformer/commit/5a5b77c908f7e89145cbc299c5c2db90dfcc76e3 revised/modularity/model.py
import torch
import torch.nn as nn

from captioner.data import EOS, SOS


class FeatureCaptioner(nn.Module):
    def __init__(self, feature_dim, vocab_size, d_model=512, heads=8, enc_layers=6, dec_layers=6,
                 ff=2048, dropout=0.05, max_len=100):
        super().__init__()
        self.d_model = d_model
        self.project = nn.Linear(feature_dim, d_model)
        self.embed = nn.Embedding(vocab_size, d_model, padding_idx=0)
        self.positions = nn.Parameter(torch.zeros(1, max_len, d_model))
        enc = nn.TransformerEncoderLayer(d_model, heads, ff, dropout=dropout, batch_first=True)
        dec = nn.TransformerDecoderLayer(d_model, heads, ff, dropout=dropout, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc, num_layers=enc_layers)
        self.decoder = nn.TransformerDecoder(dec, num_layers=dec_layers)
        self.vocab_out = nn.Linear(d_model, vocab_size)
        self.drop = nn.Dropout(dropout)

    @staticmethod
    def no_peek(n, device):
        return torch.triu(torch.ones(n, n, device=device), diagonal=1).bool()

    def memory(self, features):
        return self.encoder(self.drop(torch.relu(self.project(features))).unsqueeze(1))  # (B, 1, d)

    def step(self, prefix, memory):
        h = self.embed(prefix) * (self.d_model ** 0.5) + self.positions[:, : prefix.size(1)]
        out = self.decoder(h, memory, tgt_mask=self.no_peek(prefix.size(1), prefix.device))
        return self.vocab_out(out)

    def forward(self, features, captions):
        # teacher forcing: predict tokens 1..n from tokens 0..n-1
        return self.step(captions[:, :-1], self.memory(features))

    @torch.no_grad()
    def beam_search(self, features, beam=3, max_len=20):
        mem = self.memory(features)
        results = []
        for i in range(features.size(0)):
            beams = [(torch.tensor([[SOS]], device=features.device), 0.0)]
            for _ in range(max_len):
                grown = []
                for seq, cost in beams:
                    if seq[0, -1].item() == EOS:
                        grown.append((seq, cost))
                        continue
                    probs = torch.softmax(self.step(seq, mem[i:i + 1])[:, -1], dim=-1)
                    top_p, top_i = probs.topk(beam, dim=-1)
                    for p, tok in zip(top_p[0], top_i[0]):
                        grown.append((torch.cat([seq, tok.view(1, 1)], dim=1), cost - torch.log(p).item()))
                beams = sorted(grown, key=lambda b: b[1])[:beam]
            results.append(beams[0][0][0])
        return results
