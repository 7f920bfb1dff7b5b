import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from tsforecast.transformer import CausalTransformer


class ForecastModule(pl.LightningModule):
    def __init__(self, input_dim, hidden_dim=128, num_layers=4, num_heads=8, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.model = CausalTransformer(input_dim, hidden_dim, input_dim, num_layers, num_heads)

    def training_step(self, batch, batch_idx):
        x, y = batch                      # (B, T, F), next-step targets (B, T, F)
        loss = F.mse_loss(self.model(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", F.mse_loss(self.model(x), y), prog_bar=True)

    def configure_optimizers(self):
        opt = torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=self.hparams.lr, total_steps=self.trainer.estimated_stepping_batches)
        return [opt], [{"scheduler": sched, "interval": "step"}]


def fit(train_ds, val_ds, input_dim: int, epochs: int = 50):
    module = ForecastModule(input_dim)
    trainer = pl.Trainer(
        max_epochs=epochs,
        precision="16-mixed",           # autocast: the attention scores are float16
        gradient_clip_val=1.0,
        gradient_clip_algorithm="norm",
    )
    trainer.fit(module, DataLoader(train_ds, batch_size=64, shuffle=True), DataLoader(val_ds, batch_size=64))
    return module
