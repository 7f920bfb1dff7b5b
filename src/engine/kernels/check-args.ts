// Argument checks shared by every kernel: a bad view (negative size, a leading dimension narrower than the
// matrix, a view that runs past its array) is a clear Error naming the argument, never a wrong answer or a
// read outside the array.
import type { GemmArgs, SoftmaxRowsArgs } from './kernel';

function checkCount(value: unknown, name: string, fn: string): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new Error(`${fn}: ${name} must be a non-negative integer, got ${String(value)}`);
  }
}

/** Checks that the rows x cols view at off with leading dimension ld lies inside an array of `length`. */
function checkView(fn: string, name: string, array: unknown, off: number, ld: number, rows: number, cols: number, ldName: string): void {
  if (!(array instanceof Float32Array)) throw new Error(`${fn}: ${name} must be a Float32Array`);
  checkCount(off, `${name}Off`, fn);
  checkCount(ld, ldName, fn);
  if (rows === 0 || cols === 0) return;
  if (rows > 1 && ld < cols) {
    throw new Error(`${fn}: ${ldName} = ${ld} is smaller than the ${cols} columns of ${name}`);
  }
  const end = off + (rows - 1) * ld + cols;
  if (end > array.length) {
    throw new Error(
      `${fn}: ${name} is viewed as ${rows}x${cols} at offset ${off} with ${ldName} = ${ld}, which needs ` +
        `${end} elements, but the array has ${array.length}`,
    );
  }
}

export function checkGemmArgs(args: GemmArgs): void {
  const fn = 'gemm';
  const { m, n, k, transB } = args;
  checkCount(m, 'm', fn);
  checkCount(n, 'n', fn);
  checkCount(k, 'k', fn);
  if (typeof transB !== 'boolean') throw new Error(`${fn}: transB must be a boolean, got ${String(transB)}`);
  checkView(fn, 'a', args.a, args.aOff, args.lda, m, k, 'lda');
  if (transB) checkView(fn, 'b', args.b, args.bOff, args.ldb, n, k, 'ldb');
  else checkView(fn, 'b', args.b, args.bOff, args.ldb, k, n, 'ldb');
  checkView(fn, 'c', args.c, args.cOff, args.ldc, m, n, 'ldc');
  const { alpha = 1, beta = 0 } = args;
  if (typeof alpha !== 'number') throw new Error(`${fn}: alpha must be a number, got ${String(alpha)}`);
  if (beta !== 0 && beta !== 1) throw new Error(`${fn}: beta must be 0 or 1, got ${String(beta)}`);
}

export function checkSoftmaxRowsArgs(args: SoftmaxRowsArgs): void {
  const fn = 'softmaxRows';
  checkCount(args.rows, 'rows', fn);
  checkCount(args.cols, 'cols', fn);
  checkView(fn, 'x', args.x, args.off, args.ld, args.rows, args.cols, 'ld');
  if (args.fullyMasked !== 'nan' && args.fullyMasked !== 'zero') {
    throw new Error(`${fn}: fullyMasked must be 'nan' or 'zero', got ${String(args.fullyMasked)}`);
  }
}
