from functools import partial

from torch.utils.data import DataLoader

from src.models.transformer import PaperMHA
from src.utils.data_utils import collate_fn


def train_step(embed, attention, batch):
    src_ids, tgt_in, tgt_out, src_mask, tgt_mask = batch
    tgt = embed(tgt_in)
    mem = embed(src_ids)
    h = attention(tgt, tgt, tgt, tgt_mask)
    return attention(h, mem, mem, src_mask), tgt_out


def run(dataset, tokenizer, embed, d_model=512, n_heads=8):
    attention = PaperMHA(d_model, n_heads, dropout=0.1)
    loader = DataLoader(dataset, batch_size=32, collate_fn=partial(collate_fn, tokenizer=tokenizer))
    for batch in loader:
        yield train_step(embed, attention, batch)
