from transformers import Trainer, TrainingArguments
from attention import Attention

args = TrainingArguments(output_dir="out", bf16=True, fp16=False, per_device_train_batch_size=16)
trainer = Trainer(model=Attention(768, 12), args=args)
trainer.train()
