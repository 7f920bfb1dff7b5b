import argparse

from . import llm


def introduce_parser_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--dmodel", type=int, required=True)
    parser.add_argument("--n_att_heads", type=int, required=True)
    parser.add_argument("--dhead", type=int, default=None)
    parser.add_argument("--model_type", type=str, default="gpt")
    parser.add_argument("--flash_attention", action="store_true")
    parser.add_argument(
        "--attention_normalization",
        type=str,
        default=None,
        help="""options:
        'sqrt' - normalize attention by 1 / dhead**0.5
        'dhead' - normalize attention by 1 / dhead (muP)
        any float x: attn = Q@K * x
        defaults to None, which results in normalization by 1 / dhead**0.5""",
    )
    return parser


def get_attention_layer(args):
    causal = args.model_type == "gpt"
    return lambda: llm.Attention(
        dmodel=args.dmodel,
        heads=args.n_att_heads,
        causal=causal,
        dhead=args.dhead,
        flash=args.flash_attention,
        attn_scale=args.attention_normalization,
    )
