# case: mask-moleculegen-collate-pad-kpm
# modelled-on: DaoyuanLi2816/Molecule-Generator https://github.com/DaoyuanLi2816/Molecule-Generator/pull/22
# label: correct
# pattern: the padding mask is built in the collate function of data.py ((tokens == PAD_IDX), True at the padding), reaches the training loop through DataLoader(collate_fn=collate) and is handed to nn.TransformerEncoder's src_key_padding_mask and the decoder's tgt_key_padding_mask in model.py, next to a triu(ones, diagonal=1) bool tgt_mask
# why: PR #22 added exactly this: nn.Transformer* masks are True = ignore, so a mask that is True at the padding and a causal mask that is True above the diagonal block the padding and the future
# looks-like: ATT002
import torch
from torch.utils.data import DataLoader

from data import SmilesDataset, collate
from model import TransformerVAE


def train(encoded, vocab_size, epochs=10, lr=1e-4, device="cpu"):
    loader = DataLoader(SmilesDataset(encoded), batch_size=64, shuffle=True, collate_fn=collate)
    model = TransformerVAE(vocab_size).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(epochs):
        for tokens, pad_mask in loader:
            tokens, pad_mask = tokens.to(device), pad_mask.to(device)
            logits, mu, logvar = model(tokens, pad_mask)
            rec = torch.nn.functional.cross_entropy(logits[:, :-1].transpose(1, 2), tokens[:, 1:], ignore_index=0)
            kld = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
            loss = rec + kld
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model
