import torch.nn as nn
from transformers import BertConfig, BertModel


class BERT4Rec(nn.Module):
    def __init__(self, vocab_size, max_seq_len=200, hidden_size=256, num_layers=2, num_heads=4, dropout=0.1):
        super().__init__()
        config = BertConfig(
            vocab_size=vocab_size,
            hidden_size=hidden_size,
            num_hidden_layers=num_layers,
            num_attention_heads=num_heads,
            intermediate_size=4 * hidden_size,
            max_position_embeddings=max_seq_len,
            hidden_dropout_prob=dropout,
            attention_probs_dropout_prob=dropout,
            pad_token_id=0,
        )
        self.bert = BertModel(config)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward(self, input_seq, attention_mask=None):
        if attention_mask is None:
            attention_mask = (input_seq != 0).long()  # (B, T), 1 = item
        outputs = self.bert(input_ids=input_seq, attention_mask=attention_mask)
        return self.out(outputs.last_hidden_state)
