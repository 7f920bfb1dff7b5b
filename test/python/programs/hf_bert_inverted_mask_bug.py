# requires: torch2
# The mask is built the wrong way round in another file (attn_lib.padding_mask gives True for real tokens);
# the bug is visible only in the values: HF reads attention_mask 1 = attend.
import torch
from transformers import BertConfig, BertModel
from attn_lib import padding_mask

torch.manual_seed(0)
bert = BertModel(BertConfig(num_hidden_layers=1, num_attention_heads=4, hidden_size=64, intermediate_size=128, vocab_size=100, pad_token_id=0)).eval()
ids = torch.tensor([[5, 6, 7, 8, 9], [11, 12, 13, 0, 0]])
with torch.no_grad():
    bert(ids, attention_mask=(~padding_mask(ids)).long())  # expect: ATT002
print("ok")
