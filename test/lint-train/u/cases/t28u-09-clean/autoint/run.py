import torch

from autoint.model import AutoInt

# the model_config entry "AutoInt_test" of the library, as keyword arguments
AUTOINT_TEST = dict(
    embedding_dim=4,
    num_heads=2,
    attention_layers=3,
    attention_dim=8,
    use_residual=True,
    layer_norm=False,
    use_scale=False,
    net_dropout=0.0,
)


def build(num_fields=20, vocab_size=10000):
    model = AutoInt(num_fields, vocab_size, **AUTOINT_TEST)
    optimizer = torch.optim.Adam(model.parameters(), lr=1.0e-3)
    return model, optimizer, torch.nn.BCELoss()


def train_step(model, optimizer, loss_fn, X, y):
    optimizer.zero_grad()
    loss = loss_fn(model(X).squeeze(-1), y.float())
    loss.backward()
    optimizer.step()
    return loss.item()
