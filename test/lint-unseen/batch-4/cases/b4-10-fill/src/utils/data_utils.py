import torch


def tokenize_batch(tokenizer, sentences):
    encodings = tokenizer.encode_batch(sentences)
    ids = [enc.ids for enc in encodings]
    keep = [enc.attention_mask for enc in encodings]  # 1 on the tokens, 0 on the padding
    return torch.tensor(ids, dtype=torch.long), torch.tensor(keep, dtype=torch.bool)


def create_target_mask(tgt_keep):
    batch_size, tgt_len = tgt_keep.shape
    tgt_keep = tgt_keep.reshape(batch_size, 1, 1, tgt_len) == 1
    no_future = torch.ones((1, 1, tgt_len, tgt_len)).tril() == 1
    return tgt_keep & no_future


def collate_fn(batch, tokenizer):
    src_sentences, tgt_sentences = zip(*batch)
    src_ids, src_keep = tokenize_batch(tokenizer, list(src_sentences))
    tgt_ids, tgt_keep = tokenize_batch(tokenizer, list(tgt_sentences))
    src_mask = src_keep.reshape(src_keep.shape[0], 1, 1, -1)
    tgt_mask = create_target_mask(tgt_keep[:, :-1])
    return src_ids, tgt_ids[:, :-1], tgt_ids[:, 1:], src_mask, tgt_mask
