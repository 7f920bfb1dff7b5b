import argparse

from model import Mixer


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--causal", action="store_true")
    args = p.parse_args()
    kwargs = {"is_causal": args.causal}
    return Mixer(64, 4, **kwargs)


def lm_layer():
    return Mixer(64, 4, is_causal=True)
