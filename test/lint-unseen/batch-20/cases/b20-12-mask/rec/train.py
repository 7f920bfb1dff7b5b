import torch


def bpr_step(model, batch, optimizer):
    source, target, pad_mask, _, neg_samples, _ = batch
    source, target, pad_mask, neg_samples = source.cuda(), target.cuda(), pad_mask.cuda(), neg_samples.cuda()
    keep = (~pad_mask).int()
    hidden, pos_embed, neg_embed = model(source, target, neg_samples[..., 0], pad_mask)
    pos = (hidden * pos_embed).sum(-1)
    neg = (hidden * neg_embed).sum(-1)
    loss = -(torch.log(torch.sigmoid(pos - neg) + 1e-9) * keep).sum() / keep.sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
