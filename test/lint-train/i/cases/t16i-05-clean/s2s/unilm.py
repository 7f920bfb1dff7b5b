# case: t16i-05-clean
# modelled-on: 920232796/bert_seq2seq https://github.com/920232796/bert_seq2seq/commit/c7988b01e3e69d66a061b28974ff9cc8fc4a36de
# label: correct
# class: clean
# pattern: a UniLM-style seq2seq BERT: the seq2seq wrapper builds a 0/1 keep mask from the token types, (1 - s_key) * (1 - s_query) + s_query * tril(ones) (source tokens see the source only, target tokens see everything up to themselves), and passes it as attention_mask to a BERT module (other file) that multiplies it with the padding keep mask (input_ids > 0), turns the product into an additive mask with (1.0 - keep) * -10000.0 and adds it to the scaled scores before the softmax
# why: correct: both masks are keep masks (1 = may attend), their product is again a keep mask, and (1 - keep) * -10000 puts the large negative exactly where keep is 0; -10000 is representable in half precision; the scale is the per-head size
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/920232796/bert_seq2seq https://github.com/920232796/bert_seq2seq/commit/c7988b01e3e69d66a061b28974ff9cc8fc4a36de bert_seq2seq/bert_cls_multi_seq2seq.py
import torch
import torch.nn as nn

from .bert import Bert


class UniLMSeq2Seq(nn.Module):
    def __init__(self, vocab, hidden=768):
        super().__init__()
        self.bert = Bert(vocab, hidden)
        self.decoder = nn.Linear(hidden, vocab)

    def forward(self, input_ids, token_type_ids, labels=None):
        seq_len = input_ids.shape[1]
        ones = torch.ones((1, 1, seq_len, seq_len), dtype=torch.float32, device=input_ids.device)
        causal = ones.tril()
        s_key = token_type_ids.unsqueeze(1).unsqueeze(2).float()
        s_query = token_type_ids.unsqueeze(1).unsqueeze(3).float()
        a_mask = (1.0 - s_key) * (1.0 - s_query) + s_query * causal
        hidden = self.bert(input_ids, token_type_ids=token_type_ids, attention_mask=a_mask)
        logits = self.decoder(hidden)
        if labels is None:
            return logits
        target_mask = token_type_ids[:, 1:].float()
        loss = nn.CrossEntropyLoss(ignore_index=0, reduction="none")
        per_token = loss(logits[:, :-1].reshape(-1, logits.size(-1)), labels.reshape(-1))
        return (per_token * target_mask.reshape(-1)).sum() / target_mask.sum()
