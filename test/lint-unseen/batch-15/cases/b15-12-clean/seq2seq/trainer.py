import torch


def train_epoch(model, loader, loss_fn, opt, device):
    model.train()
    for src_batch, tgt_batch in loader:  # tokenizers' Encoding objects, padded per batch
        src_ids = torch.IntTensor([s.ids for s in src_batch]).to(device)
        tgt_ids = torch.IntTensor([s.ids for s in tgt_batch]).to(device)
        decoder_in, decoder_out = tgt_ids[:, :-1], tgt_ids[:, 1:]
        src_keep = torch.IntTensor([s.attention_mask for s in src_batch]).to(device)  # 1 = token, 0 = pad
        tgt_keep = torch.IntTensor([s.attention_mask for s in tgt_batch])[:, :-1].to(device)

        logits = model(src_ids, decoder_in, src_keep, tgt_keep)
        loss = loss_fn(logits.transpose(-1, -2), decoder_out.long())
        opt.zero_grad()
        loss.backward()
        opt.step()
