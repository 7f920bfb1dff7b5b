import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader

from collate import PretrainCollator
from encoder import MaskedLM


def train(tokenizer, dataset, steps=1000, mixed_precision="bf16"):
    accelerator = Accelerator(mixed_precision=mixed_precision)
    model = MaskedLM(tokenizer.vocab_size)
    loader = DataLoader(dataset, batch_size=32, collate_fn=PretrainCollator(tokenizer))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model, opt, loader = accelerator.prepare(model, opt, loader)
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=-100)
    for step, batch in zip(range(steps), loader):
        with accelerator.autocast():
            logits = model(batch["input_ids"], batch["attention_mask"], batch["token_type_ids"])
            loss = loss_fn(logits.view(-1, logits.size(-1)), batch["labels"].view(-1))
        accelerator.backward(loss)
        opt.step()
        opt.zero_grad()
