// Grouped-query attention: H query heads share H_kv key/value heads, each kv head serving a run of
// H / H_kv consecutive query heads (HF's repeat_kv = repeat_interleave; MQA is H_kv = 1). Pure.

/** The kv head query head `head` reads: floor(head / (H / H_kv)). */
export function kvHeadOf(head: number, nHead: number, nKvHead: number): number {
  checkGroups(nHead, nKvHead);
  if (!Number.isInteger(head) || head < 0 || head >= nHead) throw new Error(`GQA: query head ${head} is outside 0..${nHead - 1}`);
  return Math.floor(head / (nHead / nKvHead));
}

/** (H,): the kv head of every query head. */
export function kvHeadMap(nHead: number, nKvHead: number): number[] {
  checkGroups(nHead, nKvHead);
  const group = nHead / nKvHead;
  return Array.from({ length: nHead }, (_, h) => Math.floor(h / group));
}

function checkGroups(nHead: number, nKvHead: number): void {
  if (!Number.isInteger(nHead) || !Number.isInteger(nKvHead) || nHead < 1 || nKvHead < 1 || nHead % nKvHead !== 0) {
    throw new Error(`GQA: ${nKvHead} key/value heads must divide ${nHead} query heads`);
  }
}
