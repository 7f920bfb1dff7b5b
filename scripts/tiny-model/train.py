#!/usr/bin/python3
"""Trains the tiny bilingual GPT-2 that ships with the extension (media/models/tiny-bilingual/).

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

try:
    import numpy as np
    import regex  # noqa: F401  (bpe.py)
    import torch
except ImportError as e:
    raise SystemExit(f"train.py needs Debian's PyTorch, NumPy and regex: apt-get install -y python3-torch python3-numpy python3-regex ({e})") from e

from bpe import ByteLevelBpe, train_bpe  # noqa: E402
from corpus import build_documents, fetch_sources  # noqa: E402
from model import TinyConfig, TinyGpt2  # noqa: E402
from safetensors_io import dump_safetensors  # noqa: E402

SEED = 20240531
VOCAB_SIZE = 3072
CONFIG = TinyConfig(vocab_size=VOCAB_SIZE, n_positions=128, n_embd=64, n_layer=3, n_head=4)
BATCH = int(os.environ.get("TINY_MODEL_BATCH", "8"))  # TINY_MODEL_*: for experiments only
STEPS = int(os.environ.get("TINY_MODEL_STEPS", "1600"))
LR = float(os.environ.get("TINY_MODEL_LR", "5e-3"))
WARMUP = 100
# 3/8 of each batch is a span of the corpus followed by the same span again (then the text that follows
# it), so copying from earlier in the context pays off within a short training run: induction heads.
REPEAT_ROWS = int(os.environ.get("TINY_MODEL_REPEAT_ROWS", str(3 * BATCH // 8)))
REPEAT_SPAN = (8, 48)
# The first steps train on repeated spans only: the copy circuit (a previous-token head feeding an induction
# head) forms there quickly, and stays when the natural text comes in; without this it had not formed after
# 1,600 steps of the mixed batches.
REPEAT_ONLY_STEPS = int(os.environ.get("TINY_MODEL_REPEAT_ONLY_STEPS", "400"))
HELD_OUT_FRACTION = 0.02

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


def batch(stream: torch.Tensor, g: torch.Generator, repeat_rows: int) -> torch.Tensor:
    """(BATCH, T + 1) token windows; the first `repeat_rows` rows are span + same span + what follows."""
    T = CONFIG.n_positions
    starts = torch.randint(0, len(stream) - 2 * T - 2, (BATCH,), generator=g)
    lengths = torch.randint(REPEAT_SPAN[0], REPEAT_SPAN[1] + 1, (BATCH,), generator=g)
    rows = []
    for r in range(BATCH):
        s = int(starts[r])
        if r < repeat_rows:
            n = int(lengths[r])
            span = stream[s : s + n]
            rows.append(torch.cat([span, span, stream[s + n : s + n + T + 1 - 2 * n]]))
        else:
            rows.append(stream[s : s + T + 1])
    return torch.stack(rows)  # (B, T + 1)


def lr_at(step: int) -> float:
    if step < WARMUP:
        return LR * (step + 1) / WARMUP
    progress = (step - WARMUP) / max(1, STEPS - WARMUP)
    return LR * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


@torch.no_grad()
def held_out_loss(model: TinyGpt2, stream: torch.Tensor) -> float:
    T = CONFIG.n_positions
    n = (len(stream) - 1) // T
    x = torch.stack([stream[i * T : i * T + T + 1] for i in range(min(n, 64))])
    logits, _ = model(x[:, :-1])
    return float(torch.nn.functional.cross_entropy(logits.reshape(-1, CONFIG.vocab_size), x[:, 1:].reshape(-1)))


@torch.no_grad()
def probe(model: TinyGpt2) -> str:
    """Progress of the patterns the model is meant to show, on random tokens x₁…x₃₀ x₁…x₃₀ (its own generator,
    so probing does not change training): the best previous-token and induction weights over heads."""
    n = 30
    seq = torch.randint(256, 1024, (4, n), generator=torch.Generator().manual_seed(7))  # frequent tokens
    _, attentions = model(torch.cat([seq, seq], dim=1))
    prev = max(float(a[:, h].diagonal(-1, dim1=-2, dim2=-1).mean()) for a in attentions for h in range(CONFIG.n_head))
    induct = max(float(a[:, h].diagonal(-(n - 1), dim1=-2, dim2=-1)[:, 1:].mean()) for a in attentions for h in range(CONFIG.n_head))
    return f"best previous-token head {prev:.2f}, best induction head {induct:.2f}"


def train(stream: np.ndarray, log) -> tuple[TinyGpt2, dict]:
    split = int(len(stream) * (1 - HELD_OUT_FRACTION))
    train_stream = torch.from_numpy(stream[:split])
    held_out = torch.from_numpy(stream[split:])
    g = torch.Generator().manual_seed(SEED)
    model = TinyGpt2(CONFIG)
    model.init_weights(g)
    decay = [p for n, p in model.named_parameters() if p.dim() == 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() != 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=LR, betas=(0.9, 0.95))
    start = time.time()
    losses = []
    for step in range(STEPS):
        for group in opt.param_groups:
            group["lr"] = lr_at(step)
        x = batch(train_stream, g, BATCH if step < REPEAT_ONLY_STEPS else REPEAT_ROWS)
        logits, _ = model(x[:, :-1])
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, CONFIG.vocab_size), x[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        losses.append(float(loss))
        if step % 100 == 0 or step == STEPS - 1:
            log(f"step {step:5d}  loss {np.mean(losses[-100:]):.3f}  lr {lr_at(step):.2e}  {time.time() - start:.0f}s")
        if step % 200 == 199 or step == STEPS - 1:
            log(f"           probe: {probe(model)}")
    model.eval()
    stats = {
        "steps": STEPS,
        "tokens_seen": STEPS * BATCH * CONFIG.n_positions,
        "final_train_loss_last_100": round(float(np.mean(losses[-100:])), 4),
        "held_out_loss": round(held_out_loss(model, held_out), 4),
        "held_out_tokens": int(len(held_out)),
    }
    return model, stats


@torch.no_grad()
def write_reference(model: TinyGpt2, bpe: ByteLevelBpe, out: Path) -> None:
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
    tokens, merges = train_bpe(texts, VOCAB_SIZE)
    bpe = ByteLevelBpe(tokens, merges)
    if len(tokens) + 1 != VOCAB_SIZE:
        raise SystemExit(f"BPE stopped at {len(tokens) + 1} tokens (the corpus has too few repeated pairs for {VOCAB_SIZE})")
    stream = encode_corpus(bpe, texts)
    log(f"bpe: {len(merges)} merges in {time.time() - t1:.0f}s; {len(stream)} tokens ({len(corpus_bytes) / len(stream):.2f} bytes/token)")
    t2 = time.time()
    model, stats = train(stream, log)
    log(f"training: {time.time() - t2:.0f}s; {stats}")

    args.out.mkdir(parents=True, exist_ok=True)
    named = {k: v.numpy() for k, v in model.named_tensors().items()}
    (args.out / "model.safetensors").write_bytes(dump_safetensors(named, {"format": "pt", "source": "scripts/tiny-model/train.py"}))
    (args.out / "config.json").write_text(json.dumps(CONFIG.hf_config(), indent=2) + "\n")
    (args.out / "tokenizer.json").write_text(bpe.tokenizer_json(), encoding="utf-8")
    write_reference(model, bpe, args.reference_out)
    outputs = {f"{args.out.name}/{f}": sha256(args.out / f) for f in FILES}
    outputs.update({f"reference/{f}": sha256(args.reference_out / f) for f in REFERENCE_FILES})
    manifest = {
        "about": "SHA-256 of what scripts/tiny-model/train.py writes; test/unit/tiny-model.test.ts checks the shipped files, npm run tiny-model:verify retrains and compares.",
        "outputs": outputs,
        "corpus": {"documents": len(docs), "bytes": len(corpus_bytes), "sha256": hashlib.sha256(corpus_bytes).hexdigest(), "bytes_by_source": by_source, "tokens": int(len(stream))},
        "model": {**CONFIG.hf_config(), "parameters": int(sum(p.numel() for p in model.parameters()))},
        "training": {"seed": SEED, "batch": BATCH, "lr": LR, "warmup": WARMUP, "repeat_rows": REPEAT_ROWS, "repeat_only_steps": REPEAT_ONLY_STEPS, "repeat_span": list(REPEAT_SPAN), **stats},
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
