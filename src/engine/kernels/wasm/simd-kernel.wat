;; Attention Inspector: WebAssembly SIMD (128-bit) kernels behind the kernel boundary (../kernel.ts).
;;
;; Assembled from this text by scripts/build-wasm.mjs (wabt) into src/engine/kernels/generated/; driven by
;; ../wasm-kernel.ts, which copies operands into this module's memory, runs the cache blocking loops and copies
;; results out. Everything here works on byte addresses into the one exported memory; lengths are in floats.
;;
;; Matrix product (sgemm), GotoBLAS/BLIS style:
;;   - C is computed in register tiles of 4 rows x 8 columns (eight f32x4 accumulators);
;;   - B is packed in panels of 8 columns: for each p, B[p, j..j+7] side by side (32 bytes, two f32x4 loads),
;;     zero-padded past the last column; a panel (kc x 8) stays in L1 while a block of A streams past it;
;;   - A: the caller stages each block of A (mc x kc) contiguously, rows kc floats apart; the micro-kernel
;;     broadcasts A[i..i+3, p] with v128.load32_splat, either straight from those 4 rows ($micro) or, for
;;     wide products, from panels packed by $packA (4 values side by side per p: fewer address computations
;;     per step, $microPacked). Packing costs a pass over A per block of B columns, which only pays when n is
;;     large (attention's P.V has n = 64).
;;   - the caller's C and A buffers are padded to whole tiles, so the micro-kernel always computes a full 4x8
;;     tile and the caller copies out only the real part.
;; Softmax rows: max pass, exp pass (polynomial exp, see $expPass) with the sum in float64, scale pass.
;;
;; This text is plain 128-bit SIMD (no relaxed SIMD, so results do not depend on the machine): the
;; micro-kernels' multiply-accumulate is f32x4.mul then f32x4.add, rounded twice.
;;
;; Four modules are assembled from it (scripts/build-wasm.mjs reads the `variant` lines below): this one,
;; which owns its memory (the single-thread kernel); simd-kernel-shared, which imports a shared memory
;; (threads proposal) so that two threads run these functions on the same staged operands
;; (../parallel-kernel.ts), with the same results bit for bit; and simd-kernel-fma / simd-kernel-fma-shared,
;; the same two with the micro-kernels' 16 multiply-accumulates as f32x4.relaxed_madd (relaxed SIMD: one
;; fused multiply-add where the CPU has one, rounded once, so results may differ from the exact modules in
;; the last bits and between machines). Softmax and packing are the same code in all four.
;; variant simd-kernel-shared: (memory (export "memory") 1) => (import "env" "memory" (memory 1 16384 shared))
;; variant simd-kernel-fma: /\(f32x4\.add \(local\.get (\$c\d\d)\) \(f32x4\.mul \(local\.get \$x\) \(local\.get (\$b\d)\)\)\)/ x16 => (f32x4.relaxed_madd (local.get $x) (local.get $2) (local.get $1))
;; variant simd-kernel-fma-shared: simd-kernel-fma + simd-kernel-shared
(module
  (memory (export "memory") 1)

  ;; ------------------------------------------------------------------------------------------------------
  ;; Packing
  ;; ------------------------------------------------------------------------------------------------------

  ;; packA: the block A[0:mc, 0:kc] (row-major at $src, rows $lda floats apart) -> panels of 4 rows at $dst.
  ;; Panel q occupies kc*4 floats: for p = 0..kc-1, A[4q+0, p], A[4q+1, p], A[4q+2, p], A[4q+3, p]
  ;; (rows past mc read as 0).
  (func $packA (export "packA") (param $src i32) (param $lda i32) (param $mc i32) (param $kc i32) (param $dst i32)
    (local $ldab i32) (local $i i32) (local $rows i32) (local $kc4 i32) (local $p i32) (local $pb i32)
    (local $r0 i32) (local $r1 i32) (local $r2 i32) (local $r3 i32) (local $ii i32)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128)
    (local.set $ldab (i32.shl (local.get $lda) (i32.const 2)))
    (local.set $kc4 (i32.and (local.get $kc) (i32.const -4)))
    (block $rows_done
      (loop $row_panels
        (br_if $rows_done (i32.ge_s (local.get $i) (local.get $mc)))
        (local.set $rows (i32.sub (local.get $mc) (local.get $i)))
        (local.set $r0 (i32.add (local.get $src) (i32.mul (local.get $i) (local.get $ldab))))
        (if (i32.ge_s (local.get $rows) (i32.const 4))
          (then
            (local.set $r1 (i32.add (local.get $r0) (local.get $ldab)))
            (local.set $r2 (i32.add (local.get $r1) (local.get $ldab)))
            (local.set $r3 (i32.add (local.get $r2) (local.get $ldab)))
            (local.set $p (i32.const 0))
            ;; 4 columns at a time: load a 4x4 block (rows r0..r3, columns p..p+3) and store it transposed.
            (block $quads_done
              (loop $quads
                (br_if $quads_done (i32.ge_s (local.get $p) (local.get $kc4)))
                (local.set $pb (i32.shl (local.get $p) (i32.const 2)))
                (local.set $v0 (v128.load (i32.add (local.get $r0) (local.get $pb))))
                (local.set $v1 (v128.load (i32.add (local.get $r1) (local.get $pb))))
                (local.set $v2 (v128.load (i32.add (local.get $r2) (local.get $pb))))
                (local.set $v3 (v128.load (i32.add (local.get $r3) (local.get $pb))))
                ;; t0 = v0[0] v1[0] v0[1] v1[1]; t1 = v0[2] v1[2] v0[3] v1[3]; t2, t3 likewise for v2, v3
                (local.set $t0 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $v0) (local.get $v1)))
                (local.set $t1 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $v0) (local.get $v1)))
                (local.set $t2 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $v2) (local.get $v3)))
                (local.set $t3 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $v2) (local.get $v3)))
                ;; column p+q of the 4 rows = low/high halves of t0|t2 and t1|t3
                (v128.store offset=0 (local.get $dst)
                  (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t0) (local.get $t2)))
                (v128.store offset=16 (local.get $dst)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t0) (local.get $t2)))
                (v128.store offset=32 (local.get $dst)
                  (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t1) (local.get $t3)))
                (v128.store offset=48 (local.get $dst)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t1) (local.get $t3)))
                (local.set $dst (i32.add (local.get $dst) (i32.const 64)))
                (local.set $p (i32.add (local.get $p) (i32.const 4)))
                (br $quads)))
            ;; the last kc mod 4 columns one at a time
            (block $cols_done
              (loop $cols
                (br_if $cols_done (i32.ge_s (local.get $p) (local.get $kc)))
                (local.set $pb (i32.shl (local.get $p) (i32.const 2)))
                (f32.store offset=0 (local.get $dst) (f32.load (i32.add (local.get $r0) (local.get $pb))))
                (f32.store offset=4 (local.get $dst) (f32.load (i32.add (local.get $r1) (local.get $pb))))
                (f32.store offset=8 (local.get $dst) (f32.load (i32.add (local.get $r2) (local.get $pb))))
                (f32.store offset=12 (local.get $dst) (f32.load (i32.add (local.get $r3) (local.get $pb))))
                (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $cols))))
          (else
            ;; last, partial panel (1..3 rows): element by element, zero past the last row
            (local.set $p (i32.const 0))
            (block $edge_done
              (loop $edge
                (br_if $edge_done (i32.ge_s (local.get $p) (local.get $kc)))
                (local.set $ii (i32.const 0))
                (block $lanes_done
                  (loop $lanes
                    (br_if $lanes_done (i32.ge_s (local.get $ii) (i32.const 4)))
                    (f32.store (local.get $dst)
                      (if (result f32) (i32.lt_s (local.get $ii) (local.get $rows))
                        (then (f32.load (i32.add (local.get $r0)
                          (i32.add (i32.mul (local.get $ii) (local.get $ldab)) (i32.shl (local.get $p) (i32.const 2))))))
                        (else (f32.const 0))))
                    (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
                    (local.set $ii (i32.add (local.get $ii) (i32.const 1)))
                    (br $lanes)))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $edge)))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $row_panels))))

  ;; packB: the block B[0:kc, 0:nc] (row-major at $src, rows $ldb floats apart) -> panels of 8 columns at $dst.
  ;; Panel q occupies kc*8 floats: for p = 0..kc-1, B[p, 8q+0..8q+7] (columns past nc read as 0).
  (func $packB (export "packB") (param $src i32) (param $ldb i32) (param $kc i32) (param $nc i32) (param $dst i32)
    (local $ldbb i32) (local $j i32) (local $cols i32) (local $s i32) (local $p i32) (local $jj i32)
    (local.set $ldbb (i32.shl (local.get $ldb) (i32.const 2)))
    (block $panels_done
      (loop $panels
        (br_if $panels_done (i32.ge_s (local.get $j) (local.get $nc)))
        (local.set $cols (i32.sub (local.get $nc) (local.get $j)))
        (local.set $s (i32.add (local.get $src) (i32.shl (local.get $j) (i32.const 2))))
        (local.set $p (i32.const 0))
        (if (i32.ge_s (local.get $cols) (i32.const 8))
          (then
            (block $rows_done
              (loop $rows
                (br_if $rows_done (i32.ge_s (local.get $p) (local.get $kc)))
                (v128.store offset=0 (local.get $dst) (v128.load offset=0 (local.get $s)))
                (v128.store offset=16 (local.get $dst) (v128.load offset=16 (local.get $s)))
                (local.set $s (i32.add (local.get $s) (local.get $ldbb)))
                (local.set $dst (i32.add (local.get $dst) (i32.const 32)))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $rows))))
          (else
            (block $edge_done
              (loop $edge
                (br_if $edge_done (i32.ge_s (local.get $p) (local.get $kc)))
                (local.set $jj (i32.const 0))
                (block $lanes_done
                  (loop $lanes
                    (br_if $lanes_done (i32.ge_s (local.get $jj) (i32.const 8)))
                    (f32.store (local.get $dst)
                      (if (result f32) (i32.lt_s (local.get $jj) (local.get $cols))
                        (then (f32.load (i32.add (local.get $s) (i32.shl (local.get $jj) (i32.const 2)))))
                        (else (f32.const 0))))
                    (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
                    (local.set $jj (i32.add (local.get $jj) (i32.const 1)))
                    (br $lanes)))
                (local.set $s (i32.add (local.get $s) (local.get $ldbb)))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $edge)))))
        (local.set $j (i32.add (local.get $j) (i32.const 8)))
        (br $panels))))

  ;; packBT: like packB for a transposed operand: element (p, j) of the block is at $src + 4*(j*$ldb + p)
  ;; (B is stored [n, k], as nn.Linear's weight or K in Q.K^T). Same panel layout as packB.
  (func $packBT (export "packBT") (param $src i32) (param $ldb i32) (param $kc i32) (param $nc i32) (param $dst i32)
    (local $ldbb i32) (local $j i32) (local $cols i32) (local $kc4 i32) (local $p i32) (local $pb i32) (local $jj i32)
    (local $r0 i32) (local $r1 i32) (local $r2 i32) (local $r3 i32)
    (local $r4 i32) (local $r5 i32) (local $r6 i32) (local $r7 i32)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128)
    (local.set $ldbb (i32.shl (local.get $ldb) (i32.const 2)))
    (local.set $kc4 (i32.and (local.get $kc) (i32.const -4)))
    (block $panels_done
      (loop $panels
        (br_if $panels_done (i32.ge_s (local.get $j) (local.get $nc)))
        (local.set $cols (i32.sub (local.get $nc) (local.get $j)))
        (local.set $r0 (i32.add (local.get $src) (i32.mul (local.get $j) (local.get $ldbb))))
        (local.set $p (i32.const 0))
        (if (i32.ge_s (local.get $cols) (i32.const 8))
          (then
            (local.set $r1 (i32.add (local.get $r0) (local.get $ldbb)))
            (local.set $r2 (i32.add (local.get $r1) (local.get $ldbb)))
            (local.set $r3 (i32.add (local.get $r2) (local.get $ldbb)))
            (local.set $r4 (i32.add (local.get $r3) (local.get $ldbb)))
            (local.set $r5 (i32.add (local.get $r4) (local.get $ldbb)))
            (local.set $r6 (i32.add (local.get $r5) (local.get $ldbb)))
            (local.set $r7 (i32.add (local.get $r6) (local.get $ldbb)))
            ;; 4 values of p at a time: two 4x4 transposes (stored rows r0..r3, then r4..r7)
            (block $quads_done
              (loop $quads
                (br_if $quads_done (i32.ge_s (local.get $p) (local.get $kc4)))
                (local.set $pb (i32.shl (local.get $p) (i32.const 2)))
                (local.set $v0 (v128.load (i32.add (local.get $r0) (local.get $pb))))
                (local.set $v1 (v128.load (i32.add (local.get $r1) (local.get $pb))))
                (local.set $v2 (v128.load (i32.add (local.get $r2) (local.get $pb))))
                (local.set $v3 (v128.load (i32.add (local.get $r3) (local.get $pb))))
                (local.set $t0 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $v0) (local.get $v1)))
                (local.set $t1 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $v0) (local.get $v1)))
                (local.set $t2 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $v2) (local.get $v3)))
                (local.set $t3 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $v2) (local.get $v3)))
                (v128.store offset=0 (local.get $dst)
                  (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t0) (local.get $t2)))
                (v128.store offset=32 (local.get $dst)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t0) (local.get $t2)))
                (v128.store offset=64 (local.get $dst)
                  (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t1) (local.get $t3)))
                (v128.store offset=96 (local.get $dst)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t1) (local.get $t3)))
                (local.set $v0 (v128.load (i32.add (local.get $r4) (local.get $pb))))
                (local.set $v1 (v128.load (i32.add (local.get $r5) (local.get $pb))))
                (local.set $v2 (v128.load (i32.add (local.get $r6) (local.get $pb))))
                (local.set $v3 (v128.load (i32.add (local.get $r7) (local.get $pb))))
                (local.set $t0 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $v0) (local.get $v1)))
                (local.set $t1 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $v0) (local.get $v1)))
                (local.set $t2 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $v2) (local.get $v3)))
                (local.set $t3 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $v2) (local.get $v3)))
                (v128.store offset=16 (local.get $dst)
                  (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t0) (local.get $t2)))
                (v128.store offset=48 (local.get $dst)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t0) (local.get $t2)))
                (v128.store offset=80 (local.get $dst)
                  (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t1) (local.get $t3)))
                (v128.store offset=112 (local.get $dst)
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t1) (local.get $t3)))
                (local.set $dst (i32.add (local.get $dst) (i32.const 128)))
                (local.set $p (i32.add (local.get $p) (i32.const 4)))
                (br $quads)))
            (block $tail_done
              (loop $tail
                (br_if $tail_done (i32.ge_s (local.get $p) (local.get $kc)))
                (local.set $pb (i32.shl (local.get $p) (i32.const 2)))
                (f32.store offset=0 (local.get $dst) (f32.load (i32.add (local.get $r0) (local.get $pb))))
                (f32.store offset=4 (local.get $dst) (f32.load (i32.add (local.get $r1) (local.get $pb))))
                (f32.store offset=8 (local.get $dst) (f32.load (i32.add (local.get $r2) (local.get $pb))))
                (f32.store offset=12 (local.get $dst) (f32.load (i32.add (local.get $r3) (local.get $pb))))
                (f32.store offset=16 (local.get $dst) (f32.load (i32.add (local.get $r4) (local.get $pb))))
                (f32.store offset=20 (local.get $dst) (f32.load (i32.add (local.get $r5) (local.get $pb))))
                (f32.store offset=24 (local.get $dst) (f32.load (i32.add (local.get $r6) (local.get $pb))))
                (f32.store offset=28 (local.get $dst) (f32.load (i32.add (local.get $r7) (local.get $pb))))
                (local.set $dst (i32.add (local.get $dst) (i32.const 32)))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $tail))))
          (else
            ;; last, partial panel (1..7 columns): element by element, zero past the last column
            (block $edge_done
              (loop $edge
                (br_if $edge_done (i32.ge_s (local.get $p) (local.get $kc)))
                (local.set $jj (i32.const 0))
                (block $lanes_done
                  (loop $lanes
                    (br_if $lanes_done (i32.ge_s (local.get $jj) (i32.const 8)))
                    (f32.store (local.get $dst)
                      (if (result f32) (i32.lt_s (local.get $jj) (local.get $cols))
                        (then (f32.load (i32.add (local.get $r0)
                          (i32.add (i32.mul (local.get $jj) (local.get $ldbb)) (i32.shl (local.get $p) (i32.const 2))))))
                        (else (f32.const 0))))
                    (local.set $dst (i32.add (local.get $dst) (i32.const 4)))
                    (local.set $jj (i32.add (local.get $jj) (i32.const 1)))
                    (br $lanes)))
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $edge)))))
        (local.set $j (i32.add (local.get $j) (i32.const 8)))
        (br $panels))))

  ;; ------------------------------------------------------------------------------------------------------
  ;; Compute
  ;; ------------------------------------------------------------------------------------------------------

  ;; micro: one 4x8 tile of C (at $c, rows $ldcb bytes apart) from 4 rows of A (at $a, $ldab bytes apart) and a
  ;; packed B panel ($b): acc = sum over p < kc of A[:, p] (x) B[p, :]; then C = alpha*acc, or C + alpha*acc
  ;; when $accumulate. kc >= 1. Each accumulator sums its p terms in order, like the scalar loop.
  (func $micro (param $kc i32) (param $a i32) (param $ldab i32) (param $b i32) (param $c i32) (param $ldcb i32)
    (param $alpha f32) (param $accumulate i32)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (local $b0 v128) (local $b1 v128) (local $x v128) (local $al v128)
    (local $c1 i32) (local $c2 i32) (local $c3 i32) (local $a1 i32) (local $a2 i32) (local $a3 i32) (local $p4 i32)
    (local.set $a1 (i32.add (local.get $a) (local.get $ldab)))
    (local.set $a2 (i32.add (local.get $a1) (local.get $ldab)))
    (local.set $a3 (i32.add (local.get $a2) (local.get $ldab)))
    (loop $k
      (local.set $b0 (v128.load offset=0 (local.get $b)))
      (local.set $b1 (v128.load offset=16 (local.get $b)))
      (local.set $x (v128.load32_splat (i32.add (local.get $a) (local.get $p4))))
      (local.set $c00 (f32x4.add (local.get $c00) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c01 (f32x4.add (local.get $c01) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat (i32.add (local.get $a1) (local.get $p4))))
      (local.set $c10 (f32x4.add (local.get $c10) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c11 (f32x4.add (local.get $c11) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat (i32.add (local.get $a2) (local.get $p4))))
      (local.set $c20 (f32x4.add (local.get $c20) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c21 (f32x4.add (local.get $c21) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat (i32.add (local.get $a3) (local.get $p4))))
      (local.set $c30 (f32x4.add (local.get $c30) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c31 (f32x4.add (local.get $c31) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $p4 (i32.add (local.get $p4) (i32.const 4)))
      (local.set $b (i32.add (local.get $b) (i32.const 32)))
      (br_if $k (local.tee $kc (i32.sub (local.get $kc) (i32.const 1)))))
    (local.set $al (f32x4.splat (local.get $alpha)))
    (local.set $c00 (f32x4.mul (local.get $c00) (local.get $al)))
    (local.set $c01 (f32x4.mul (local.get $c01) (local.get $al)))
    (local.set $c10 (f32x4.mul (local.get $c10) (local.get $al)))
    (local.set $c11 (f32x4.mul (local.get $c11) (local.get $al)))
    (local.set $c20 (f32x4.mul (local.get $c20) (local.get $al)))
    (local.set $c21 (f32x4.mul (local.get $c21) (local.get $al)))
    (local.set $c30 (f32x4.mul (local.get $c30) (local.get $al)))
    (local.set $c31 (f32x4.mul (local.get $c31) (local.get $al)))
    (local.set $c1 (i32.add (local.get $c) (local.get $ldcb)))
    (local.set $c2 (i32.add (local.get $c1) (local.get $ldcb)))
    (local.set $c3 (i32.add (local.get $c2) (local.get $ldcb)))
    (if (local.get $accumulate)
      (then
        (local.set $c00 (f32x4.add (v128.load offset=0 (local.get $c)) (local.get $c00)))
        (local.set $c01 (f32x4.add (v128.load offset=16 (local.get $c)) (local.get $c01)))
        (local.set $c10 (f32x4.add (v128.load offset=0 (local.get $c1)) (local.get $c10)))
        (local.set $c11 (f32x4.add (v128.load offset=16 (local.get $c1)) (local.get $c11)))
        (local.set $c20 (f32x4.add (v128.load offset=0 (local.get $c2)) (local.get $c20)))
        (local.set $c21 (f32x4.add (v128.load offset=16 (local.get $c2)) (local.get $c21)))
        (local.set $c30 (f32x4.add (v128.load offset=0 (local.get $c3)) (local.get $c30)))
        (local.set $c31 (f32x4.add (v128.load offset=16 (local.get $c3)) (local.get $c31)))))
    (v128.store offset=0 (local.get $c) (local.get $c00))
    (v128.store offset=16 (local.get $c) (local.get $c01))
    (v128.store offset=0 (local.get $c1) (local.get $c10))
    (v128.store offset=16 (local.get $c1) (local.get $c11))
    (v128.store offset=0 (local.get $c2) (local.get $c20))
    (v128.store offset=16 (local.get $c2) (local.get $c21))
    (v128.store offset=0 (local.get $c3) (local.get $c30))
    (v128.store offset=16 (local.get $c3) (local.get $c31)))

  ;; microPacked: the same tile as $micro from a packed A panel ($a: for each p, A[i..i+3, p] side by side) and
  ;; a packed B panel ($b); the four A values of a step are 16 consecutive bytes, so the loop needs fewer
  ;; address computations than $micro's four rows.
  (func $microPacked (param $kc i32) (param $a i32) (param $b i32) (param $c i32) (param $ldcb i32) (param $alpha f32)
    (param $accumulate i32)
    (local $c00 v128) (local $c01 v128) (local $c10 v128) (local $c11 v128)
    (local $c20 v128) (local $c21 v128) (local $c30 v128) (local $c31 v128)
    (local $b0 v128) (local $b1 v128) (local $x v128) (local $al v128)
    (local $c1 i32) (local $c2 i32) (local $c3 i32)
    (loop $k
      (local.set $b0 (v128.load offset=0 (local.get $b)))
      (local.set $b1 (v128.load offset=16 (local.get $b)))
      (local.set $x (v128.load32_splat offset=0 (local.get $a)))
      (local.set $c00 (f32x4.add (local.get $c00) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c01 (f32x4.add (local.get $c01) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat offset=4 (local.get $a)))
      (local.set $c10 (f32x4.add (local.get $c10) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c11 (f32x4.add (local.get $c11) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat offset=8 (local.get $a)))
      (local.set $c20 (f32x4.add (local.get $c20) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c21 (f32x4.add (local.get $c21) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $x (v128.load32_splat offset=12 (local.get $a)))
      (local.set $c30 (f32x4.add (local.get $c30) (f32x4.mul (local.get $x) (local.get $b0))))
      (local.set $c31 (f32x4.add (local.get $c31) (f32x4.mul (local.get $x) (local.get $b1))))
      (local.set $a (i32.add (local.get $a) (i32.const 16)))
      (local.set $b (i32.add (local.get $b) (i32.const 32)))
      (br_if $k (local.tee $kc (i32.sub (local.get $kc) (i32.const 1)))))
    (local.set $al (f32x4.splat (local.get $alpha)))
    (local.set $c00 (f32x4.mul (local.get $c00) (local.get $al)))
    (local.set $c01 (f32x4.mul (local.get $c01) (local.get $al)))
    (local.set $c10 (f32x4.mul (local.get $c10) (local.get $al)))
    (local.set $c11 (f32x4.mul (local.get $c11) (local.get $al)))
    (local.set $c20 (f32x4.mul (local.get $c20) (local.get $al)))
    (local.set $c21 (f32x4.mul (local.get $c21) (local.get $al)))
    (local.set $c30 (f32x4.mul (local.get $c30) (local.get $al)))
    (local.set $c31 (f32x4.mul (local.get $c31) (local.get $al)))
    (local.set $c1 (i32.add (local.get $c) (local.get $ldcb)))
    (local.set $c2 (i32.add (local.get $c1) (local.get $ldcb)))
    (local.set $c3 (i32.add (local.get $c2) (local.get $ldcb)))
    (if (local.get $accumulate)
      (then
        (local.set $c00 (f32x4.add (v128.load offset=0 (local.get $c)) (local.get $c00)))
        (local.set $c01 (f32x4.add (v128.load offset=16 (local.get $c)) (local.get $c01)))
        (local.set $c10 (f32x4.add (v128.load offset=0 (local.get $c1)) (local.get $c10)))
        (local.set $c11 (f32x4.add (v128.load offset=16 (local.get $c1)) (local.get $c11)))
        (local.set $c20 (f32x4.add (v128.load offset=0 (local.get $c2)) (local.get $c20)))
        (local.set $c21 (f32x4.add (v128.load offset=16 (local.get $c2)) (local.get $c21)))
        (local.set $c30 (f32x4.add (v128.load offset=0 (local.get $c3)) (local.get $c30)))
        (local.set $c31 (f32x4.add (v128.load offset=16 (local.get $c3)) (local.get $c31)))))
    (v128.store offset=0 (local.get $c) (local.get $c00))
    (v128.store offset=16 (local.get $c) (local.get $c01))
    (v128.store offset=0 (local.get $c1) (local.get $c10))
    (v128.store offset=16 (local.get $c1) (local.get $c11))
    (v128.store offset=0 (local.get $c2) (local.get $c20))
    (v128.store offset=16 (local.get $c2) (local.get $c21))
    (v128.store offset=0 (local.get $c3) (local.get $c30))
    (v128.store offset=16 (local.get $c3) (local.get $c31)))

;; macro: C[0:mc, 0:nc] (at $c, rows $ldc floats apart, padded to whole 4x8 tiles) from a block of A and the
  ;; packed B block $pb (ceil(nc/8) panels of kc*8 floats). A is either rows at $a ($lda floats apart, kc of
  ;; them used, readable up to a whole number of 4-row tiles), or, when $packedA, panels of 4 rows packed by
  ;; $packA at $a. kc >= 1. Each B panel (kc*32 bytes) stays in L1 while the mc rows of A stream past it (from
  ;; L2: the caller keeps a block of A of mc*kc floats).
  (func $macro (export "macro") (param $mc i32) (param $nc i32) (param $kc i32) (param $a i32) (param $lda i32)
    (param $packedA i32) (param $pb i32) (param $c i32) (param $ldc i32) (param $alpha f32) (param $accumulate i32)
    (local $ldab i32) (local $ldcb i32) (local $jr i32) (local $ir i32) (local $ap i32) (local $cp i32)
    (local $aTile i32) (local $bPanel i32) (local $cTileRows i32)
    (local.set $ldab (i32.shl (local.get $lda) (i32.const 2)))
    (local.set $ldcb (i32.shl (local.get $ldc) (i32.const 2)))
    ;; bytes from one tile of A to the next: a packed panel (kc*16) or 4 rows
    (local.set $aTile (select (i32.shl (local.get $kc) (i32.const 4)) (i32.shl (local.get $ldab) (i32.const 2))
      (local.get $packedA)))
    (local.set $bPanel (i32.shl (local.get $kc) (i32.const 5)))
    (local.set $cTileRows (i32.shl (local.get $ldcb) (i32.const 2)))
    (block $cols_done
      (loop $cols
        (br_if $cols_done (i32.ge_s (local.get $jr) (local.get $nc)))
        (local.set $ap (local.get $a))
        (local.set $cp (i32.add (local.get $c) (i32.shl (local.get $jr) (i32.const 2))))
        (local.set $ir (i32.const 0))
        (block $rows_done
          (loop $rows
            (br_if $rows_done (i32.ge_s (local.get $ir) (local.get $mc)))
            (if (local.get $packedA)
              (then (call $microPacked (local.get $kc) (local.get $ap) (local.get $pb) (local.get $cp)
                (local.get $ldcb) (local.get $alpha) (local.get $accumulate)))
              (else (call $micro (local.get $kc) (local.get $ap) (local.get $ldab) (local.get $pb) (local.get $cp)
                (local.get $ldcb) (local.get $alpha) (local.get $accumulate))))
            (local.set $ap (i32.add (local.get $ap) (local.get $aTile)))
            (local.set $cp (i32.add (local.get $cp) (local.get $cTileRows)))
            (local.set $ir (i32.add (local.get $ir) (i32.const 4)))
            (br $rows)))
        (local.set $pb (i32.add (local.get $pb) (local.get $bPanel)))
        (local.set $jr (i32.add (local.get $jr) (i32.const 8)))
        (br $cols))))

  ;; ------------------------------------------------------------------------------------------------------
  ;; Softmax
  ;; ------------------------------------------------------------------------------------------------------

  ;; expPass: x[i] = e^(x[i] - m) in place for the floats from $q up to $end ($end - $q a multiple of 16 bytes,
  ;; x[i] <= m or NaN); returns the sum of the results, accumulated in float64 (two f64x2 accumulators).
  ;;
  ;; The subtraction is made exact with a two-sum: s + lo == x - m, s = fl(x - m). Then e^(s + lo):
  ;; - range reduction s = n*ln2 + r, |r| <= ln2/2, with ln2 split in a high part with 15 significant bits
  ;;   (n*LN2_HI is exact for |n| < 256) and a low part; r = s - n*LN2_HI - n*LN2_LO + lo;
  ;; - e^r by its Taylor polynomial of degree 6, Horner form (truncation error below (ln2/2)^7/7! = 1.2e-7);
  ;; - times 2^n (n in -150..0) as two factors 2^(n>>1) and 2^(n-(n>>1)), each a normal float built from
  ;;   exponent bits, so results in the subnormal range are rounded only once, at the last product.
  ;; Relative error below 5e-7 down to the smallest normal float (measured by the unit tests against
  ;; Math.exp); s < -104 (below half the smallest subnormal) or -inf gives +0; NaN gives NaN.
  (func $expPass (param $q i32) (param $end i32) (param $m f32) (result f64)
    (local $mv v128) (local $x v128) (local $s v128) (local $bb v128) (local $lo v128)
    (local $nf v128) (local $n v128) (local $n1 v128) (local $r v128) (local $p v128)
    (local $sumLo v128) (local $sumHi v128)
    (local.set $mv (f32x4.splat (local.get $m)))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $q) (local.get $end)))
        (local.set $x (v128.load (local.get $q)))
        ;; s + lo = x - m exactly
        (local.set $s (f32x4.sub (local.get $x) (local.get $mv)))
        (local.set $bb (f32x4.sub (local.get $s) (local.get $x)))
        (local.set $lo (f32x4.sub
          (f32x4.sub (local.get $x) (f32x4.sub (local.get $s) (local.get $bb)))
          (f32x4.add (local.get $mv) (local.get $bb))))
        ;; n = round(s / ln2); r = s - n*LN2_HI - n*LN2_LO + lo, LN2_HI = 0x3f317200, LN2_LO = ln2 - LN2_HI
        (local.set $nf (f32x4.nearest (f32x4.mul (local.get $s) (v128.const f32x4 1.44269504 1.44269504 1.44269504 1.44269504))))
        (local.set $r (f32x4.sub (local.get $s)
          (f32x4.mul (local.get $nf) (v128.const f32x4 0.693145751953125 0.693145751953125 0.693145751953125 0.693145751953125))))
        (local.set $r (f32x4.add
          (f32x4.sub (local.get $r)
            (f32x4.mul (local.get $nf) (v128.const f32x4 1.42860677e-6 1.42860677e-6 1.42860677e-6 1.42860677e-6)))
          (local.get $lo)))
        ;; p = 1 + r(1 + r(1/2 + r(1/6 + r(1/24 + r(1/120 + r/720)))))
        (local.set $p (f32x4.add (v128.const f32x4 8.33333333e-3 8.33333333e-3 8.33333333e-3 8.33333333e-3)
          (f32x4.mul (local.get $r) (v128.const f32x4 1.38888889e-3 1.38888889e-3 1.38888889e-3 1.38888889e-3))))
        (local.set $p (f32x4.add (v128.const f32x4 4.16666667e-2 4.16666667e-2 4.16666667e-2 4.16666667e-2)
          (f32x4.mul (local.get $r) (local.get $p))))
        (local.set $p (f32x4.add (v128.const f32x4 1.66666667e-1 1.66666667e-1 1.66666667e-1 1.66666667e-1)
          (f32x4.mul (local.get $r) (local.get $p))))
        (local.set $p (f32x4.add (v128.const f32x4 0.5 0.5 0.5 0.5) (f32x4.mul (local.get $r) (local.get $p))))
        (local.set $p (f32x4.add (v128.const f32x4 1 1 1 1) (f32x4.mul (local.get $r) (local.get $p))))
        (local.set $p (f32x4.add (v128.const f32x4 1 1 1 1) (f32x4.mul (local.get $r) (local.get $p))))
        ;; times 2^n in two steps (the conversion saturates, and maps NaN to 0, in lanes that are flushed below)
        (local.set $n (i32x4.trunc_sat_f32x4_s (local.get $nf)))
        (local.set $n1 (i32x4.shr_s (local.get $n) (i32.const 1)))
        (local.set $p (f32x4.mul (local.get $p)
          (i32x4.shl (i32x4.add (local.get $n1) (v128.const i32x4 127 127 127 127)) (i32.const 23))))
        (local.set $p (f32x4.mul (local.get $p)
          (i32x4.shl (i32x4.add (i32x4.sub (local.get $n) (local.get $n1)) (v128.const i32x4 127 127 127 127))
            (i32.const 23))))
        ;; lanes with s < -104 (including -inf) become +0
        (local.set $p (v128.andnot (local.get $p)
          (f32x4.lt (local.get $s) (v128.const f32x4 -104 -104 -104 -104))))
        (v128.store (local.get $q) (local.get $p))
        (local.set $sumLo (f64x2.add (local.get $sumLo) (f64x2.promote_low_f32x4 (local.get $p))))
        (local.set $sumHi (f64x2.add (local.get $sumHi) (f64x2.promote_low_f32x4
          (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $p) (local.get $p)))))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (br $each)))
    (local.set $sumLo (f64x2.add (local.get $sumLo) (local.get $sumHi)))
    (f64.add (f64x2.extract_lane 0 (local.get $sumLo)) (f64x2.extract_lane 1 (local.get $sumLo))))

  ;; expInto: x[i] = e^(x[i]) in place for count floats at $x (count a multiple of 4; x[i] <= 0 or NaN).
  ;; Exposes expPass's polynomial to the accuracy tests.
  (func (export "expInto") (param $x i32) (param $count i32)
    (drop (call $expPass (local.get $x) (i32.add (local.get $x) (i32.shl (local.get $count) (i32.const 2)))
      (f32.const 0))))

  ;; softmaxRows: x[r, :] = softmax(x[r, :]) in place for r < rows; row r starts at $x + 4*r*$ld; cols and ld
  ;; are multiples of 4 (the caller pads short rows with -inf, which changes neither the max nor the sum).
  ;; A row of all -inf becomes all NaN when $maskedNaN, else all 0. A NaN anywhere makes the row NaN
  ;; (f32x4.max and f32.max propagate NaN, and x - NaN is NaN).
  (func (export "softmaxRows") (param $x i32) (param $rows i32) (param $cols i32) (param $ld i32) (param $maskedNaN i32)
    (local $r i32) (local $row i32) (local $end i32) (local $q i32)
    (local $mv v128) (local $m f32) (local $invv v128) (local $fillv v128)
    (local.set $fillv (select (v128.const f32x4 nan nan nan nan) (v128.const f32x4 0 0 0 0) (local.get $maskedNaN)))
    (local.set $row (local.get $x))
    (block $rows_done
      (loop $rows
        (br_if $rows_done (i32.ge_s (local.get $r) (local.get $rows)))
        (local.set $end (i32.add (local.get $row) (i32.shl (local.get $cols) (i32.const 2))))
        ;; max
        (local.set $mv (v128.const f32x4 -inf -inf -inf -inf))
        (local.set $q (local.get $row))
        (block $d (loop $l (br_if $d (i32.ge_u (local.get $q) (local.get $end)))
          (local.set $mv (f32x4.max (local.get $mv) (v128.load (local.get $q))))
          (local.set $q (i32.add (local.get $q) (i32.const 16)))
          (br $l)))
        (local.set $m (f32.max
          (f32.max (f32x4.extract_lane 0 (local.get $mv)) (f32x4.extract_lane 1 (local.get $mv)))
          (f32.max (f32x4.extract_lane 2 (local.get $mv)) (f32x4.extract_lane 3 (local.get $mv)))))
        (if (f32.eq (local.get $m) (f32.const -inf))
          (then
            ;; fully masked row
            (local.set $q (local.get $row))
            (block $d (loop $l (br_if $d (i32.ge_u (local.get $q) (local.get $end)))
              (v128.store (local.get $q) (local.get $fillv))
              (local.set $q (i32.add (local.get $q) (i32.const 16)))
              (br $l))))
          (else
            ;; e = exp(x - max), then scale by 1/sum (1/sum rounded to float32 once)
            (local.set $invv (f32x4.splat (f32.demote_f64 (f64.div (f64.const 1)
              (call $expPass (local.get $row) (local.get $end) (local.get $m))))))
            (local.set $q (local.get $row))
            (block $d (loop $l (br_if $d (i32.ge_u (local.get $q) (local.get $end)))
              (v128.store (local.get $q) (f32x4.mul (v128.load (local.get $q)) (local.get $invv)))
              (local.set $q (i32.add (local.get $q) (i32.const 16)))
              (br $l)))))
        (local.set $row (i32.add (local.get $row) (i32.shl (local.get $ld) (i32.const 2))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows))))
)
