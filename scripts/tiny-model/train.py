#!/usr/bin/python3
"""Trains the tiny bilingual Llama-style model that ships with the extension (media/models/tiny-bilingual/).

    nice -n 10 /usr/bin/python3 scripts/tiny-model/train.py            # writes the shipped files + manifest
    /usr/bin/python3 scripts/tiny-model/train.py --out /tmp/x --no-manifest   # elsewhere (verify.py does this)

Needs Debian's python3-torch, python3-numpy and python3-regex (apt-get install -y python3-torch python3-numpy
python3-regex), apt-get and npm (to fetch the corpus: see corpus.py and DATA.md). CPU only, one thread,
deterministic: the same script, packages and torch build give the same bytes (manifest.json records the
SHA-256 of every output).

Steps: fetch the corpus → train a byte-level BPE (pure Python) → encode → train the model → write
model.safetensors, config.json, tokenizer.json, and the reference outputs the unit tests compare with.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before torch loads its thread pool
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE))

DEBIAN_PACKAGES = {"numpy": "python3-numpy", "regex": "python3-regex", "torch": "python3-torch"}
for _module, _package in DEBIAN_PACKAGES.items():
    try:
        __import__(_module)
    except ImportError as e:
        raise SystemExit(
            f"scripts/tiny-model/train.py: cannot import {_module} ({e}); it comes from Debian's {_package}: apt-get install -y {_package} "
            f"(all it needs: apt-get install -y {' '.join(DEBIAN_PACKAGES.values())}), then run it with /usr/bin/python3"
        ) from e
import numpy as np  # noqa: E402
import torch  # noqa: E402

from bpe import ByteLevelBpe, train_bpe  # noqa: E402
from corpus import build_documents, fetch_sources  # noqa: E402
from model import TinyConfig, TinyLlama  # noqa: E402
from safetensors_io import dump_safetensors  # noqa: E402

SEED = 20240531
VOCAB_SIZE = 3072
# TINY_MODEL_*: for experiments only (the shipped files come from the defaults; manifest.json records them).
_env = os.environ.get
CONFIG = TinyConfig(
    vocab_size=VOCAB_SIZE,
    max_positions=128,
    hidden=int(_env("TINY_MODEL_HIDDEN", "64")),
    n_layer=int(_env("TINY_MODEL_LAYERS", "2")),
    n_head=int(_env("TINY_MODEL_HEADS", "4")),
    intermediate=int(_env("TINY_MODEL_MLP", "128")),
    attention_bias=_env("TINY_MODEL_ATTENTION_BIAS", "1") == "1",
)
LR = float(_env("TINY_MODEL_LR", "2e-3"))
MIXED_LR = float(_env("TINY_MODEL_MIXED_LR", str(LR)))  # the mixed phase's peak learning rate
WARMUP = 50
# Two phases.
#  1. "copy": rows of COPY_T random tokens from a small alphabet (ids COPY_ALPHABET), a random prefix then one
#     segment repeated to the end of the row, the loss only where the repeat makes the next token knowable and
#     the softmax over the alphabet only. Prefix and segment lengths vary per row, so no fixed offset solves
#     it: only a head that finds the earlier copy of the current token and reads the token after it does (an
#     induction head, fed by a previous-token head below it). A small alphabet seen many times, short rows
#     and many rows per step make that circuit form in a few hundred steps.
#  2. "mixed": corpus text (the language model), "repeat" rows of natural text (a prefix, a span, the same
#     span again, then what followed), and copy rows over the wider alphabet MIXED_COPY_TOKENS with the full
#     softmax, so the circuit carries over to any token and to natural text.
COPY_STEPS = int(_env("TINY_MODEL_COPY_STEPS", "600"))
COPY_BATCH = int(_env("TINY_MODEL_COPY_BATCH", "32"))
COPY_T = 64
COPY_ALPHABET = (256, 256 + int(_env("TINY_MODEL_COPY_ALPHABET", "64")))  # [lo, hi)
COPY_SEGMENT = (8, 24)
COPY_PREFIX = (0, 16)
MIXED_STEPS = int(_env("TINY_MODEL_MIXED_STEPS", "900"))
MIXED_BATCH = int(_env("TINY_MODEL_MIXED_BATCH", "16"))
MIXED_T = int(_env("TINY_MODEL_MIXED_T", "64"))
MIXED_REPEAT_ROWS = int(_env("TINY_MODEL_REPEAT_ROWS", "4"))
MIXED_COPY_ROWS = int(_env("TINY_MODEL_COPY_ROWS", "4"))
MIXED_COPY_TOKENS = (256, 1024)  # [lo, hi): frequent merged tokens, the ids analyse-heads.ts probes with
REPEAT_SPAN = (6, 24)
STEPS = COPY_STEPS + MIXED_STEPS
# Heads of layer 0 whose q/k biases start as a previous-token pattern (model.start_previous_token_head).
PREVIOUS_TOKEN_START_HEADS = int(_env("TINY_MODEL_PREV_START_HEADS", "1"))
PREVIOUS_TOKEN_START_AMPLITUDE = 6.0
HELD_OUT_FRACTION = 0.02
PROBE_EVERY = int(_env("TINY_MODEL_PROBE_EVERY", "100"))

# Inputs whose outputs the unit tests compare with the TypeScript forward pass and tokenizer.
REFERENCE_TEXTS = {
    "english": "The cat sat on the mat because it was tired.",
    "chinese": "我爱自然语言处理。",
    "repeat": "A little bird sang in the tall tree, and the old man listened. A little bird sang in the tall tree, and the old man listened.",
}
LOGIT_TEXTS = ("english", "chinese")
TOKENIZER_SAMPLES = [
    "The cat sat on the mat because it was tired.",
    "我爱自然语言处理。",
    "子曰：“学而时习之，不亦说乎？”",
    "It's 3.14159 — isn't it? We'll see; they've   gone.\n\n\tTabs\tand  spaces  ",
    "Hello, 世界! 你好，world。Mixed 中文 and English 123 四五六.",
    "emoji 🙂👍🏽 and rare 龘 characters, accents: café, naïve, Straße.",
    "<|endoftext|>after the special token<|endoftext|>",
    "   leading spaces and trailing   ",
    "line one\r\nline two\nline three\u2028sep\u00a0nbsp",
    "1234567890 00 007",
]

FILES = ("model.safetensors", "config.json", "tokenizer.json")
REFERENCE_FILES = ("reference.safetensors", "reference.json")
IGNORE = -100  # target of a position whose loss is not counted


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def deterministic() -> None:
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(SEED)
    np.random.seed(SEED)


def encode_corpus(bpe: ByteLevelBpe, texts: list[str]) -> np.ndarray:
    stream: list[int] = []
    for t in texts:
        stream.extend(bpe.encode(t))
        stream.append(bpe.end_of_text)
    return np.asarray(stream, dtype=np.int64)


def _between(lo_hi: tuple[int, int], g: torch.Generator) -> int:
    return int(torch.randint(lo_hi[0], lo_hi[1] + 1, (1,), generator=g))


def repeat_row(stream: torch.Tensor, g: torch.Generator, T: int) -> torch.Tensor:
    """(T + 1,) natural text: a prefix, a span, the same span again, then what followed the span."""
    n = _between(REPEAT_SPAN, g)
    p = _between((0, T + 1 - 2 * n - 4), g)
    s = int(torch.randint(0, len(stream) - 2 * T - 2, (1,), generator=g))
    head = stream[s : s + p + n]  # prefix + span
    return torch.cat([head, stream[s + p : s + p + n], stream[s + p + n : s + p + n + T + 1 - p - 2 * n]])


def copy_row(g: torch.Generator, T: int, tokens: tuple[int, int]) -> tuple[torch.Tensor, torch.Tensor]:
    """(T + 1,) random tokens from [tokens): a prefix, then one segment repeated to the end; and the targets
    (T,) with IGNORE wherever the next token cannot be known (the prefix and the first copy)."""
    n = _between(COPY_SEGMENT, g)
    p = _between(COPY_PREFIX, g)
    drawn = torch.randint(tokens[0], tokens[1], (p + n,), generator=g)  # prefix + segment
    row = torch.cat([drawn[:p], drawn[p:].repeat((T + 1 - p) // n + 1)])[: T + 1]
    targets = row[1:].clone()
    targets[: p + n] = IGNORE  # the first predictable token is the second copy's second (row[p + n + 1])
    return row, targets


def copy_batch(g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Phase 1: inputs (COPY_BATCH, COPY_T) and targets (COPY_BATCH, COPY_T) as indices into COPY_ALPHABET."""
    rows = [copy_row(g, COPY_T, COPY_ALPHABET) for _ in range(COPY_BATCH)]
    x = torch.stack([r[:-1] for r, _ in rows])  # (B, T)
    y = torch.stack([t for _, t in rows])  # (B, T)
    return x, torch.where(y == IGNORE, y, y - COPY_ALPHABET[0])


def mixed_batch(stream: torch.Tensor, g: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Phase 2: inputs (MIXED_BATCH, MIXED_T) and targets: MIXED_REPEAT_ROWS repeat rows, MIXED_COPY_ROWS copy
    rows over MIXED_COPY_TOKENS, the rest corpus text."""
    T = MIXED_T
    xs, ys = [], []
    for r in range(MIXED_BATCH):
        if r < MIXED_REPEAT_ROWS:
            row = repeat_row(stream, g, T)
            xs.append(row[:-1])
            ys.append(row[1:])
        elif r < MIXED_REPEAT_ROWS + MIXED_COPY_ROWS:
            row, targets = copy_row(g, T, MIXED_COPY_TOKENS)
            xs.append(row[:-1])
            ys.append(targets)
        else:
            s = int(torch.randint(0, len(stream) - T - 2, (1,), generator=g))
            xs.append(stream[s : s + T])
            ys.append(stream[s + 1 : s + T + 1])
    return torch.stack(xs), torch.stack(ys)  # (B, T) each


def lr_at(step: int) -> float:
    """Warm-up, constant through the copy phase, cosine decay to a tenth over the mixed phase."""
    if step < WARMUP:
        return LR * (step + 1) / WARMUP
    if step < COPY_STEPS:
        return LR
    progress = (step - COPY_STEPS) / max(1, MIXED_STEPS)
    return MIXED_LR * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


@torch.no_grad()
def held_out_loss(model: TinyLlama, stream: torch.Tensor) -> float:
    T = CONFIG.max_positions
    n = (len(stream) - 1) // T
    x = torch.stack([stream[i * T : i * T + T + 1] for i in range(min(n, 64))])
    logits, _ = model(x[:, :-1])
    return float(torch.nn.functional.cross_entropy(logits.reshape(-1, CONFIG.vocab_size), x[:, 1:].reshape(-1)))


@torch.no_grad()
def probe(model: TinyLlama, held_out: torch.Tensor) -> dict:
    """Progress of the patterns the model is meant to show (own generators, so probing does not change
    training). On random tokens x₁…x₃₀ x₁…x₃₀ (ids 256–1023, as analyse-heads.ts): per head the mean weight on
    the induction target (from the second xᵢ to the first xᵢ₊₁), and the loss on each copy (full softmax);
    on held-out corpus text, per head the mean weight on the previous token."""
    n = 30
    seq = torch.randint(256, 1024, (8, n), generator=torch.Generator().manual_seed(7))  # (8, n)
    x = torch.cat([seq, seq], dim=1)  # (8, 2n)
    logits, attentions = model(x)
    nll = torch.nn.functional.cross_entropy(logits[:, :-1].reshape(-1, CONFIG.vocab_size), x[:, 1:].reshape(-1), reduction="none").view(8, -1)
    H = CONFIG.n_head
    induct = [[round(float(a[:, h].diagonal(-(n - 1), dim1=-2, dim2=-1)[:, 1:].mean()), 3) for h in range(H)] for a in attentions]
    T = 96
    text = torch.stack([held_out[i * T : (i + 1) * T] for i in range(8)])  # (8, T)
    _, att_text = model(text)
    prev = [[round(float(a[:, h].diagonal(-1, dim1=-2, dim2=-1).mean()), 3) for h in range(H)] for a in att_text]
    return {
        "prev": prev,
        "induct": induct,
        "copy_loss_first": round(float(nll[:, : n - 1].mean()), 3),
        "copy_loss_second": round(float(nll[:, n:].mean()), 3),
    }


def train(stream: np.ndarray, log) -> tuple[TinyLlama, dict]:
    split = int(len(stream) * (1 - HELD_OUT_FRACTION))
    train_stream = torch.from_numpy(stream[:split])
    held_out = torch.from_numpy(stream[split:])
    g = torch.Generator().manual_seed(SEED)
    model = TinyLlama(CONFIG)
    model.init_weights(g)
    for h in range(PREVIOUS_TOKEN_START_HEADS):
        model.start_previous_token_head(0, h, PREVIOUS_TOKEN_START_AMPLITUDE)
    # No weight decay: on embeddings it fights the small-alphabet phase (most rows do not use most tokens).
    opt = torch.optim.Adam(model.parameters(), lr=LR, betas=(0.9, 0.98))
    alphabet = torch.arange(*COPY_ALPHABET)  # (A,)
    start = time.time()
    losses = []
    probes = []
    for step in range(STEPS):
        for group in opt.param_groups:
            group["lr"] = lr_at(step)
        if step < COPY_STEPS:
            x, y = copy_batch(g)  # (B, T) each; y indexes the alphabet
            hidden = model.hidden_states(x)  # (B, T, E)
            logits = hidden @ model.model.embed_tokens.weight[alphabet].T  # (B, T, A): the softmax over the alphabet only
        else:
            x, y = mixed_batch(train_stream, g)  # (B, T) each
            logits, _ = model(x)  # (B, T, V)
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), ignore_index=IGNORE)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        losses.append(float(loss))
        if step % PROBE_EVERY == PROBE_EVERY - 1 or step == STEPS - 1:
            p = probe(model, held_out)
            probes.append({"step": step + 1, **p})
            phase = "copy" if step < COPY_STEPS else "mixed"
            log(f"step {step + 1:5d} {phase:5s} loss {np.mean(losses[-PROBE_EVERY:]):.3f}  lr {lr_at(step):.2e}  {time.time() - start:.0f}s  probe {json.dumps(p)}")
    model.eval()
    stats = {
        "steps": STEPS,
        "tokens_seen": COPY_STEPS * COPY_BATCH * COPY_T + MIXED_STEPS * MIXED_BATCH * MIXED_T,
        "final_train_loss_last_100": round(float(np.mean(losses[-100:])), 4),
        "held_out_loss": round(held_out_loss(model, held_out), 4),
        "held_out_tokens": int(len(held_out)),
        "training_seconds": round(time.time() - start),
        "final_probe": probes[-1] if probes else None,
    }
    return model, stats


def write_model(model: TinyLlama, bpe: ByteLevelBpe, out: Path) -> None:
    """model.safetensors (HF Llama names, float32), config.json and tokenizer.json into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    named = {k: v.numpy() for k, v in model.named_tensors().items()}
    (out / "model.safetensors").write_bytes(dump_safetensors(named, {"format": "pt", "source": "scripts/tiny-model/train.py"}))
    (out / "config.json").write_text(json.dumps(CONFIG.hf_config(), indent=2) + "\n")
    (out / "tokenizer.json").write_text(bpe.tokenizer_json(), encoding="utf-8")


@torch.no_grad()
def write_reference(model: TinyLlama, bpe: ByteLevelBpe, out: Path) -> None:
    tensors: dict[str, np.ndarray] = {}
    doc: dict = {"texts": {}, "tokenizer_samples": []}
    for key, text in REFERENCE_TEXTS.items():
        ids = bpe.encode(text)
        logits, attentions = model(torch.tensor([ids]))
        tensors[f"{key}.attentions"] = torch.stack([a[0] for a in attentions]).numpy()  # (L, H, T, T)
        if key in LOGIT_TEXTS:
            tensors[f"{key}.logits"] = logits[0].numpy()  # (T, V)
        doc["texts"][key] = {"text": text, "ids": ids, "logits": key in LOGIT_TEXTS}
    for text in TOKENIZER_SAMPLES:
        ids: list[int] = []
        for i, part in enumerate(text.split("<|endoftext|>")):
            if i:
                ids.append(bpe.end_of_text)
            ids.extend(bpe.encode(part))
        doc["tokenizer_samples"].append({"text": text, "ids": ids})
    out.mkdir(parents=True, exist_ok=True)
    (out / "reference.safetensors").write_bytes(dump_safetensors(tensors, {"source": "scripts/tiny-model/train.py"}))
    (out / "reference.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=REPO / "media/models/tiny-bilingual", help="model folder to write")
    ap.add_argument("--reference-out", type=Path, default=REPO / "test/fixtures/tiny-model", help="where the reference outputs go")
    ap.add_argument("--cache", type=Path, default=HERE / ".cache", help="downloaded packages")
    ap.add_argument("--no-manifest", action="store_true", help="do not rewrite manifest.json (verify.py compares instead)")
    ap.add_argument("--reuse-bpe", type=Path, help="experiments: keep the trained BPE in this folder and reuse it for the same corpus (the shipped run trains it)")
    args = ap.parse_args()
    log = lambda s: print(s, flush=True)  # noqa: E731
    deterministic()
    t0 = time.time()
    src = fetch_sources(args.cache)
    docs = build_documents(src)
    texts = [d.text for d in docs]
    corpus_bytes = "\n".join(texts).encode("utf-8")
    by_source: dict[str, int] = {}
    for d in docs:
        by_source[d.source] = by_source.get(d.source, 0) + len(d.text.encode("utf-8"))
    log(f"corpus: {len(docs)} documents, {len(corpus_bytes)} bytes {by_source}")
    t1 = time.time()
    corpus_digest = hashlib.sha256(corpus_bytes).hexdigest()
    saved = args.reuse_bpe / f"bpe-{VOCAB_SIZE}-{corpus_digest[:16]}.json" if args.reuse_bpe else None
    if saved and saved.exists():
        tokens, merges = (json.loads(saved.read_text(encoding="utf-8"))[k] for k in ("tokens", "merges"))
        tokens = [bytes(t) for t in tokens]
        merges = [(int(a), int(b)) for a, b in merges]
    else:
        tokens, merges = train_bpe(texts, VOCAB_SIZE)
        if saved:
            saved.parent.mkdir(parents=True, exist_ok=True)
            saved.write_text(json.dumps({"tokens": [list(t) for t in tokens], "merges": [list(m) for m in merges]}), encoding="utf-8")
    bpe = ByteLevelBpe(tokens, merges)
    if len(tokens) + 1 != VOCAB_SIZE:
        raise SystemExit(f"BPE stopped at {len(tokens) + 1} tokens (the corpus has too few repeated pairs for {VOCAB_SIZE})")
    stream = encode_corpus(bpe, texts)
    log(f"bpe: {len(merges)} merges in {time.time() - t1:.0f}s; {len(stream)} tokens ({len(corpus_bytes) / len(stream):.2f} bytes/token)")
    t2 = time.time()
    model, stats = train(stream, log)
    log(f"training: {time.time() - t2:.0f}s; {stats}")

    write_model(model, bpe, args.out)
    write_reference(model, bpe, args.reference_out)
    outputs = {f"{args.out.name}/{f}": sha256(args.out / f) for f in FILES}
    outputs.update({f"reference/{f}": sha256(args.reference_out / f) for f in REFERENCE_FILES})
    manifest = {
        "about": "SHA-256 of what scripts/tiny-model/train.py writes; test/unit/tiny-model.test.ts checks the shipped files, npm run tiny-model:verify retrains and compares.",
        "outputs": outputs,
        "corpus": {"documents": len(docs), "bytes": len(corpus_bytes), "sha256": hashlib.sha256(corpus_bytes).hexdigest(), "bytes_by_source": by_source, "tokens": int(len(stream))},
        "model": {**CONFIG.hf_config(), "parameters": int(sum(p.numel() for p in model.parameters()))},
        "training": {
            "seed": SEED, "lr": LR, "mixed_lr": MIXED_LR, "warmup": WARMUP, "optimizer": "Adam (0.9, 0.98), no weight decay, gradient clip 1.0",
            "copy_phase": {"steps": COPY_STEPS, "batch": COPY_BATCH, "row": COPY_T, "alphabet": list(COPY_ALPHABET), "segment": list(COPY_SEGMENT), "prefix": list(COPY_PREFIX)},
            "mixed_phase": {"steps": MIXED_STEPS, "batch": MIXED_BATCH, "row": MIXED_T, "repeat_rows": MIXED_REPEAT_ROWS, "repeat_span": list(REPEAT_SPAN), "copy_rows": MIXED_COPY_ROWS, "copy_tokens": list(MIXED_COPY_TOKENS)},
            "previous_token_start_heads": PREVIOUS_TOKEN_START_HEADS, "previous_token_start_amplitude": PREVIOUS_TOKEN_START_AMPLITUDE,
            **stats,
        },
        "environment": {"python": platform.python_version(), "torch": torch.__version__, "numpy": np.__version__, "machine": platform.machine()},
    }
    text = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    if args.no_manifest:
        (args.out / "manifest.json").write_text(text, encoding="utf-8")
    else:
        (HERE / "manifest.json").write_text(text, encoding="utf-8")
    log(f"wrote {args.out} and {args.reference_out} in {time.time() - t0:.0f}s")
    for name, digest in outputs.items():
        log(f"  {digest}  {name}")


if __name__ == "__main__":
    main()
