import torch
from transformers import BertTokenizer

from bert_model import Bert

tokenizer = BertTokenizer.from_pretrained("bert-base-cased")
custom_model = Bert(vocab_size=tokenizer.vocab_size, num_heads=12, num_layers=12)

inputs_dict = tokenizer(["Hello there, how are you doing today?", "Fine."], padding=True, return_tensors="pt")
inputs = inputs_dict["input_ids"]  # (b, T)
segment_ids = inputs_dict["token_type_ids"]  # (b, T)
padding_mask = inputs_dict["attention_mask"]  # (b, T), 1 = real token

custom_model.eval()
with torch.no_grad():
    out = custom_model(inputs=inputs, segment_ids=segment_ids, padding_mask=padding_mask)
    print(out.sum())
