// The Unigram model's piece trie (src/tokenize/hf/unigram.ts). A typed-array kernel (left out of
// noUncheckedIndexedAccess by name in scripts/typecheck-strict-index.mjs): its slots are masked into the table
// (`& mask`) and its nodes are below `nodes`, so every index it reads is in range by construction, in the loop
// that builds a 250,000-piece vocabulary and the one every character of the text goes through.

/**
 * A trie over UTF-16 code units (equivalent to HF's byte trie: pieces are whole strings). Its edges live in one
 * open-addressing hash table of typed arrays keyed by (node, unit), so a 250,000-piece vocabulary (about a
 * million edges) builds quickly and takes a few tens of MB. `pieceAt[node]` is the id of the piece ending there,
 * or -1.
 */
export class PieceTrie {
  private edgeNode = new Int32Array(1 << 12);
  private edgeUnit = new Uint16Array(1 << 12);
  private edgeChild = new Int32Array(1 << 12); // 0 = empty slot (node 0, the root, is never a child)
  private edges = 0;
  private pieceAt = new Int32Array(1024).fill(-1);
  private nodes = 1;

  private slot(node: number, unit: number): number {
    const mask = this.edgeChild.length - 1;
    let h = (Math.imul(node, 0x9e3779b1) ^ Math.imul(unit, 0x85ebca6b)) & mask;
    while (this.edgeChild[h] !== 0 && (this.edgeNode[h] !== node || this.edgeUnit[h] !== unit)) h = (h + 1) & mask;
    return h;
  }

  private grow(): void {
    const [nodes, units, children] = [this.edgeNode, this.edgeUnit, this.edgeChild];
    this.edgeNode = new Int32Array(nodes.length * 2);
    this.edgeUnit = new Uint16Array(nodes.length * 2);
    this.edgeChild = new Int32Array(nodes.length * 2);
    for (let k = 0; k < children.length; k++) {
      if (children[k] === 0) continue;
      const h = this.slot(nodes[k], units[k]);
      this.edgeNode[h] = nodes[k];
      this.edgeUnit[h] = units[k];
      this.edgeChild[h] = children[k];
    }
  }

  add(piece: string, id: number): void {
    let node = 0;
    for (let i = 0; i < piece.length; i++) {
      const unit = piece.charCodeAt(i);
      let h = this.slot(node, unit);
      if (this.edgeChild[h] === 0) {
        if (2 * (this.edges + 1) > this.edgeChild.length) {
          this.grow();
          h = this.slot(node, unit);
        }
        const child = this.nodes++;
        if (child >= this.pieceAt.length) {
          const grown = new Int32Array(this.pieceAt.length * 2).fill(-1);
          grown.set(this.pieceAt);
          this.pieceAt = grown;
        }
        this.edgeNode[h] = node;
        this.edgeUnit[h] = unit;
        this.edgeChild[h] = child;
        this.edges++;
      }
      node = this.edgeChild[h];
    }
    this.pieceAt[node] = id; // a later duplicate wins, as in HF's token → id map
  }

  /** Calls `f(end, id)` for every piece that starts at `text[from]`, shortest first. */
  forEachPrefix(text: string, from: number, f: (end: number, id: number) => void): void {
    let node = 0;
    for (let i = from; i < text.length; i++) {
      const child = this.edgeChild[this.slot(node, text.charCodeAt(i))];
      if (child === 0) return;
      node = child;
      const id = this.pieceAt[node];
      if (id >= 0) f(i + 1, id);
    }
  }
}
