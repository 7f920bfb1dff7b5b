# case: b4-22-fill
# modelled-on: IDEA-CCNL/Fengshenbang-LM https://github.com/IDEA-CCNL/Fengshenbang-LM/issues/25
# label: buggy
# class: real-bug
# pattern: a Lightning fine-tuning script for the RoFormer UniLM model of roformer/ (after the mask fix): the module wraps the model and the trainer runs with precision=16; in roformer/attention.py the bool mask is written into the scores with masked_fill(mask, torch.tensor(-1e8))
# why: under 16-bit mixed precision the scores are float16, whose range ends at -65504: -1e8 cannot be represented (the reporter's fine-tuning failed with "value cannot be converted to type at::Half without overflow: -1e+08"); the fill must fit float16 (e.g. torch.finfo(scores.dtype).min). The repository's follow-up commit 98d3988 changed it to -1e5, still below float16's minimum, so there is no correct fixed form
# source: https://github.com/IDEA-CCNL/Fengshenbang-LM https://github.com/IDEA-CCNL/Fengshenbang-LM/issues/25 model/roformer/modeling_roformer.py
import pytorch_lightning as pl
import torch
import torch.nn.functional as F

from roformer.model import RoFormerUniLM


class UniLMFinetune(pl.LightningModule):
    def __init__(self, model: RoFormerUniLM, vocab_size: int, hidden_size: int, lr: float = 2e-5):
        super().__init__()
        self.model = model
        self.lm_head = torch.nn.Linear(hidden_size, vocab_size)
        self.lr = lr

    def training_step(self, batch, batch_idx):
        h = self.model(batch["input_ids"], batch["attention_mask"], batch["token_type_ids"])
        logits = self.lm_head(h)
        return F.cross_entropy(logits.view(-1, logits.size(-1)), batch["labels"].view(-1), ignore_index=-100)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.lr)


def main(model, loader, vocab_size, hidden_size):
    trainer = pl.Trainer(max_epochs=3, gpus=1, precision=16)
    trainer.fit(UniLMFinetune(model, vocab_size, hidden_size), loader)
