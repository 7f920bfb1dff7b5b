# requires: torch2
# HF GPT-2 and BERT built from configs (random weights), SDPA attention on a padded batch: nothing to report.
import torch
from transformers import BertConfig, BertModel, GPT2Config, GPT2Model

torch.manual_seed(0)
gpt2 = GPT2Model(GPT2Config(n_layer=2, n_head=4, n_embd=64, vocab_size=100, n_positions=32, bos_token_id=1, eos_token_id=2)).eval()
ids = torch.tensor([[5, 6, 7, 8, 9], [0, 0, 11, 12, 13]])  # left padding
attention_mask = (ids != 0).long()
with torch.no_grad():
    gpt2(ids, attention_mask=attention_mask)

bert = BertModel(BertConfig(num_hidden_layers=2, num_attention_heads=4, hidden_size=64, intermediate_size=128, vocab_size=100, pad_token_id=0)).eval()
ids = torch.tensor([[5, 6, 7, 8, 9], [11, 12, 13, 0, 0]])  # right padding
with torch.no_grad():
    bert(ids, attention_mask=(ids != 0).long())
print("ok")
