"""Byte-level BPE in pure Python: trained on the corpus, written as a HuggingFace tokenizer.json that the
extension's tokenizer (src/tokenize/hf) and HF `tokenizers` both read.

The scheme is GPT-2's: text is split by GPT-2's regex (written with \\p{White_Space}, as src/tokenize/byte-level.ts
does), each piece becomes its UTF-8 bytes, each byte one printable character (bytes_to_unicode), and merges are
applied lowest rank first. Every byte has a token, so no text is ever <unk>: English and Chinese both encode.
"""

from __future__ import annotations

import heapq
import json
from collections import Counter

import regex

# The same pattern as src/tokenize/byte-level.ts (GPT2_SPLIT_SOURCE).
GPT2_SPLIT = regex.compile(
    r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\p{White_Space}\p{L}\p{N}]+|\p{White_Space}+(?!\P{White_Space})|\p{White_Space}+"""
)

END_OF_TEXT = "<|endoftext|>"


def bytes_to_unicode() -> list[str]:
    """GPT-2's table: printable bytes map to themselves, the others to U+0100 + n, in byte order."""
    printable = lambda b: 0x21 <= b <= 0x7E or 0xA1 <= b <= 0xAC or 0xAE <= b <= 0xFF  # noqa: E731
    table, n = [], 0
    for b in range(256):
        if printable(b):
            table.append(chr(b))
        else:
            table.append(chr(256 + n))
            n += 1
    return table


BYTE_TO_CHAR = bytes_to_unicode()


def pieces(text: str) -> list[str]:
    return GPT2_SPLIT.findall(text)


def train_bpe(texts: list[str], vocab_size: int) -> tuple[list[bytes], list[tuple[int, int]]]:
    """Learns merges until the vocabulary (256 bytes + merges + 1 special token) has `vocab_size` entries.

    Returns the token bytes by id (0..255 are the bytes themselves) and the merges as (left id, right id) in
    rank order. The most frequent pair wins; ties go to the smaller (left id, right id), so the result is
    fully determined by the text.
    """
    n_merges = vocab_size - 256 - 1
    counts: Counter[str] = Counter()
    for t in texts:
        counts.update(pieces(t))
    words: list[list[int]] = []
    freq: list[int] = []
    for w, c in sorted(counts.items()):
        words.append(list(w.encode("utf-8")))
        freq.append(c)
    pair_count: dict[tuple[int, int], int] = {}
    where: dict[tuple[int, int], set[int]] = {}
    for i, w in enumerate(words):
        for p in zip(w, w[1:]):
            pair_count[p] = pair_count.get(p, 0) + freq[i]
            where.setdefault(p, set()).add(i)
    heap = [(-c, p) for p, c in pair_count.items()]
    heapq.heapify(heap)
    tokens = [bytes([b]) for b in range(256)]
    merges: list[tuple[int, int]] = []
    while len(merges) < n_merges and heap:
        neg, pair = heapq.heappop(heap)
        if pair_count.get(pair, 0) != -neg:
            continue  # stale entry
        if -neg < 2:
            break
        new_id = len(tokens)
        tokens.append(tokens[pair[0]] + tokens[pair[1]])
        merges.append(pair)
        changed: dict[tuple[int, int], int] = {}
        for i in sorted(where.pop(pair, ())):
            w = words[i]
            f = freq[i]
            for p in zip(w, w[1:]):
                pair_count[p] -= f
                changed[p] = pair_count[p]
            merged: list[int] = []
            k = 0
            while k < len(w):
                if k + 1 < len(w) and w[k] == pair[0] and w[k + 1] == pair[1]:
                    merged.append(new_id)
                    k += 2
                else:
                    merged.append(w[k])
                    k += 1
            words[i] = merged
            for p in zip(merged, merged[1:]):
                pair_count[p] = pair_count.get(p, 0) + f
                changed[p] = pair_count[p]
                where.setdefault(p, set()).add(i)
        for p, c in changed.items():
            if c > 0:
                heapq.heappush(heap, (-c, p))
            else:
                pair_count.pop(p, None)
    return tokens, merges


class ByteLevelBpe:
    """Encoder for trained merges: the same results as HF tokenizers' BPE (lowest rank first, leftmost on ties)."""

    def __init__(self, tokens: list[bytes], merges: list[tuple[int, int]]):
        self.tokens = tokens
        self.rank = {p: r for r, p in enumerate(merges)}
        self.merged_id = {p: 256 + r for r, p in enumerate(merges)}
        self.end_of_text = len(tokens)
        self.cache: dict[str, list[int]] = {}

    def encode_piece(self, piece: str) -> list[int]:
        hit = self.cache.get(piece)
        if hit is not None:
            return hit
        ids = list(piece.encode("utf-8"))
        while len(ids) > 1:
            best = min(range(len(ids) - 1), key=lambda k: (self.rank.get((ids[k], ids[k + 1]), 1 << 30), k))
            pair = (ids[best], ids[best + 1])
            if pair not in self.rank:
                break
            ids = ids[:best] + [self.merged_id[pair]] + ids[best + 2 :]
        self.cache[piece] = ids
        return ids

    def encode(self, text: str) -> list[int]:
        out: list[int] = []
        for p in pieces(text):
            out.extend(self.encode_piece(p))
        return out

    def token_string(self, i: int) -> str:
        return END_OF_TEXT if i == self.end_of_text else "".join(BYTE_TO_CHAR[b] for b in self.tokens[i])

    def tokenizer_json(self) -> str:
        """The HF tokenizer.json (GPT-2's layout: ByteLevel pre-tokenizer and decoder, BPE model)."""
        vocab = {self.token_string(i): i for i in range(len(self.tokens))}
        merges = [f"{self.token_string(a)} {self.token_string(b)}" for a, b in sorted(self.rank, key=self.rank.__getitem__)]
        doc = {
            "version": "1.0",
            "truncation": None,
            "padding": None,
            "added_tokens": [
                {"id": self.end_of_text, "content": END_OF_TEXT, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False, "special": True}
            ],
            "normalizer": None,
            "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
            "post_processor": None,
            "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
            "model": {
                "type": "BPE",
                "dropout": None,
                "unk_token": None,
                "continuing_subword_prefix": "",
                "end_of_word_suffix": "",
                "fuse_unk": False,
                "byte_fallback": False,
                "ignore_merges": False,
                "vocab": vocab,
                "merges": merges,
            },
        }
        return json.dumps(doc, ensure_ascii=False, indent=None, separators=(",", ":")) + "\n"
