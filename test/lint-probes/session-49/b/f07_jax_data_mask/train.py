import jax

from data import batches
from model import Encoder


def run(examples):
    model = Encoder()
    params = None
    for batch in batches(examples, 32, 128):
        if params is None:
            params = model.init(jax.random.PRNGKey(0), batch["tokens"], batch["mask"])
        model.apply(params, batch["tokens"], batch["mask"])
