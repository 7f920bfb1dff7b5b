# requires: torch2
# A Llama (the test fixture's tiny checkpoint and its tokenizer) generating with a KV cache on a left-padded
# batch: the prefill is square, each decoding step has 1 query against all cached keys. Nothing to report.
import os

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "modern", "llama")
tokenizer = AutoTokenizer.from_pretrained(folder)
tokenizer.padding_side = "left"
model = AutoModelForCausalLM.from_pretrained(folder).eval()

batch = tokenizer(["The cat sat on the mat", "Attention"], padding=True, return_tensors="pt")
with torch.no_grad():
    out = model(**batch, use_cache=True)
    mask = batch["attention_mask"]
    for step in range(2):
        next_ids = out.logits[:, -1].argmax(-1, keepdim=True)
        mask = torch.cat([mask, torch.ones_like(next_ids)], dim=1)
        out = model(next_ids, attention_mask=mask, past_key_values=out.past_key_values, use_cache=True)
print("ok")
