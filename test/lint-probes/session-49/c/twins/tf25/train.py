import deepspeed
from attention import Attention

ds_config = {
    "train_batch_size": 32,
    "fp16": {"enabled": True},
    "bf16": {"enabled": False},
    "zero_optimization": {"stage": 2},
}

model = Attention(1024, 16)
engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=ds_config)
