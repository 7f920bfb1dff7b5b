import torch
import torch.nn.functional as F

from masks import make_src_mask, make_tgt_mask
from model import Seq2Seq


def train_epoch(model: Seq2Seq, loader, optimizer, device, pad_id, use_amp, amp_dtype):
    model.train()
    for src, tgt in loader:
        src, tgt = src.to(device), tgt.to(device)
        tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
        src_mask = make_src_mask(src, pad_id)
        tgt_mask = make_tgt_mask(tgt_in, pad_id)
        optimizer.zero_grad(set_to_none=True)
        with torch.amp.autocast(device_type="cuda", dtype=amp_dtype, enabled=use_amp):
            logits = model(src, tgt_in, src_mask, tgt_mask)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tgt_out.reshape(-1), ignore_index=pad_id)
        loss.backward()
        optimizer.step()


def main(loader, vocab, pad_id):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    use_amp = device.type == "cuda"
    amp_dtype = torch.bfloat16
    model = Seq2Seq(vocab).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(10):
        train_epoch(model, loader, optimizer, device, pad_id, use_amp, amp_dtype)
