import argparse

import jax
import jax.numpy as jnp
import optax
from flax.training import checkpoints, train_state

from gpt_flax import CharGPT, sample


def load(ckpt_dir: str):
    ckpt = checkpoints.restore_checkpoint(ckpt_dir=ckpt_dir, target=None)
    cfg = ckpt["config"]
    model = CharGPT(**cfg["model"], block=cfg["block_size"])
    state = train_state.TrainState.create(
        apply_fn=jax.jit(model.apply), params=ckpt["model"]["params"], tx=optax.adamw(cfg["lr"])
    )
    return state, cfg


def main(encode, decode) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reply-size", type=int, default=128)
    parser.add_argument("--ckpt", default="tmp/flax-checkpointing")
    args = parser.parse_args()
    state, cfg = load(args.ckpt)
    rng = jax.random.PRNGKey(0)
    while True:
        prompt = input(">>> ")
        if prompt == "exit":
            break
        rng, key = jax.random.split(rng)
        out = sample(state, jnp.array([encode(prompt)]), args.reply_size, cfg["block_size"], key)
        print(decode(out[0].tolist()))
