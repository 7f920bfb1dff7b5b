# case: t44ee-10-clean
# modelled-on: LilMeen/BERT4Rec-with-Gowalla-and-Yelp2018 https://github.com/LilMeen/BERT4Rec-with-Gowalla-and-Yelp2018/commit/b09f7c02966ed3c59aa729dac62ae11bd695b0e2
# label: correct
# class: clean
# pattern: a BERT4Rec reproduction on `nn.TransformerEncoder(batch_first=True)`: the dataset (another file) left-pads every window with item 0 and builds `attention_mask = ids > 0` (1 at real items, HF-style) before replacing some items with the mask token; the model inverts it, `key_padding_mask = attention_mask == 0`, for `src_key_padding_mask`
# why: correct: PyTorch's key padding mask is True at the positions to ignore, which `attention_mask == 0` is; the encoder is bidirectional (no causal mask), so left padding empties no row as long as a window holds an item, which the window builder guarantees (empty histories are skipped, evaluation always appends the mask token)
# looks-like: ATT002, ATT007
# source: https://github.com/LilMeen/BERT4Rec-with-Gowalla-and-Yelp2018 https://github.com/LilMeen/BERT4Rec-with-Gowalla-and-Yelp2018/commit/b09f7c02966ed3c59aa729dac62ae11bd695b0e2 run_torch.py
import torch
import torch.nn as nn


class ClozeRecommender(nn.Module):
    def __init__(self, vocab, max_len, hidden, layers, heads, ffn, p_hidden, p_attn):
        super().__init__()
        self.items = nn.Embedding(vocab, hidden, padding_idx=0)
        self.positions = nn.Embedding(max_len, hidden)
        self.norm = nn.LayerNorm(hidden)
        self.drop = nn.Dropout(p_hidden)
        layer = nn.TransformerEncoderLayer(
            d_model=hidden,
            nhead=heads,
            dim_feedforward=ffn,
            dropout=p_attn,
            activation="gelu",
            batch_first=True,
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers=layers)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, ids, attention_mask):
        b, n = ids.size()
        pos = torch.arange(n, device=ids.device).unsqueeze(0).expand(b, n)
        x = self.drop(self.norm(self.items(ids) + self.positions(pos)))
        # nn.Transformer* wants True where a key must be ignored
        ignore = attention_mask == 0
        return self.head(self.encoder(x, src_key_padding_mask=ignore))


def train_epoch(model, loader, criterion, optimizer, device):
    model.train()
    total = 0.0
    for batch in loader:
        ids = batch["ids"].to(device)
        attention_mask = batch["attention_mask"].to(device)
        labels = batch["labels"].to(device)
        logits = model(ids=ids, attention_mask=attention_mask)
        loss = criterion(logits.view(-1, logits.size(-1)), labels.view(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += float(loss.item())
    return total / max(len(loader), 1)
