// The BPE merge loop's priority queue (src/tokenize/bpe.ts): a binary min-heap of pending merges in growable
// typed arrays. A typed-array kernel (left out of noUncheckedIndexedAccess by name in
// scripts/typecheck-strict-index.mjs): every index it reads is below `size`, bounded by the loop conditions, and
// a check per element would cost time in the loop that merges a megabyte-long word.

/** Min-heap of pending merges ordered by (rank, pos), in growable typed arrays. */
export class MergeQueue {
  private rank: Int32Array;
  private pos: Int32Array;
  private newId: Int32Array;
  size = 0;

  constructor(capacity: number) {
    const c = Math.max(16, capacity);
    this.rank = new Int32Array(c);
    this.pos = new Int32Array(c);
    this.newId = new Int32Array(c);
  }

  private grow(): void {
    const c = this.rank.length * 2;
    const rank = new Int32Array(c);
    const pos = new Int32Array(c);
    const newId = new Int32Array(c);
    rank.set(this.rank);
    pos.set(this.pos);
    newId.set(this.newId);
    this.rank = rank;
    this.pos = pos;
    this.newId = newId;
  }

  push(rank: number, pos: number, newId: number): void {
    if (this.size === this.rank.length) this.grow();
    const R = this.rank;
    const P = this.pos;
    const N = this.newId;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (R[parent] < rank || (R[parent] === rank && P[parent] < pos)) break;
      R[i] = R[parent];
      P[i] = P[parent];
      N[i] = N[parent];
      i = parent;
    }
    R[i] = rank;
    P[i] = pos;
    N[i] = newId;
  }

  /** Removes the minimum; its pos and newId are left in `topPos` / `topNewId`. Call only when size > 0. */
  topPos = 0;
  topNewId = 0;
  pop(): void {
    const R = this.rank;
    const P = this.pos;
    const N = this.newId;
    this.topPos = P[0];
    this.topNewId = N[0];
    const n = --this.size;
    if (n === 0) return;
    const rank = R[n];
    const pos = P[n];
    const newId = N[n];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let m = l;
      const r = l + 1;
      if (r < n && (R[r] < R[l] || (R[r] === R[l] && P[r] < P[l]))) m = r;
      if (rank < R[m] || (rank === R[m] && pos < P[m])) break;
      R[i] = R[m];
      P[i] = P[m];
      N[i] = N[m];
      i = m;
    }
    R[i] = rank;
    P[i] = pos;
    N[i] = newId;
  }
}
