from translate.masks import make_masks


def train_step(model, src, tgt, pad_idx, criterion, optimizer):
    tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
    src_mask, tgt_mask = make_masks(src, tgt_in, pad_idx)
    logits = model(src, tgt_in, src_mask, tgt_mask)
    loss = criterion(logits.reshape(-1, logits.size(-1)), tgt_out.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
