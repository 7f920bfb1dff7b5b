import lightning.pytorch as pl
import torch
from lightning.pytorch.callbacks import EarlyStopping


def main(model: pl.LightningModule, train_loader, val_loader, model_folder="checkpoints"):
    torch.set_float32_matmul_precision("medium")
    trainer = pl.Trainer(
        default_root_dir=model_folder,
        max_epochs=1,
        accelerator="gpu",
        devices=[0],
        precision="16-mixed",
        callbacks=EarlyStopping(monitor="val_loss"),
    )
    trainer.fit(model=model, train_dataloaders=train_loader, val_dataloaders=val_loader)
