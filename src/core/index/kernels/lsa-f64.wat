;; The corpus LSA's inner loops in WebAssembly SIMD (f64x2): the same arithmetic as the plain
;; loops of linalg.ts and lsa.ts, lane by lane — each output element gets the same products
;; added in the same order (WebAssembly has no fused multiply-add), so the model comes out
;; bit for bit the same, about twice as fast. Pointers are byte offsets into the memory, 8-byte
;; aligned for f64 data; counts are elements.
;; Compiled by scripts/build-wasm.ts into lsa-f64.wasm.ts.
(module
  (memory (export "memory") 1)

  ;; y[i] = y[i] + a · x[i], i < n
  (func $axpy (export "axpy") (param $a f64) (param $x i32) (param $y i32) (param $n i32)
    (local $i i32)
    (local $av v128)
    (local.set $av (f64x2.splat (local.get $a)))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_s (i32.add (local.get $i) (i32.const 2)) (local.get $n)))
        (v128.store (local.get $y)
          (f64x2.add (v128.load (local.get $y)) (f64x2.mul (local.get $av) (v128.load (local.get $x)))))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (local.set $y (i32.add (local.get $y) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $pairs)))
    (if (i32.lt_s (local.get $i) (local.get $n))
      (then
        (f64.store (local.get $y)
          (f64.add (f64.load (local.get $y)) (f64.mul (local.get $a) (f64.load (local.get $x))))))))

  ;; acc (dims f64, zeroed here) = Σ_i weights[i] · f64(projection row columns[i]) for i < count, in order
  (func (export "foldIn") (param $columns i32) (param $weights i32) (param $count i32) (param $projection i32) (param $dims i32) (param $acc i32)
    (local $i i32)
    (memory.fill (local.get $acc) (i32.const 0) (i32.shl (local.get $dims) (i32.const 3)))
    (block $done
      (loop $terms
        (br_if $done (i32.ge_s (local.get $i) (local.get $count)))
        (call $axpyF32
          (f64.load (i32.add (local.get $weights) (i32.shl (local.get $i) (i32.const 3))))
          (i32.add (local.get $projection) (i32.mul (i32.load (i32.add (local.get $columns) (i32.shl (local.get $i) (i32.const 2)))) (i32.shl (local.get $dims) (i32.const 2))))
          (local.get $acc)
          (local.get $dims))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $terms))))

  ;; y[i] = y[i] + a · f64(x[i]) for f32 x, i < n
  (func $axpyF32 (export "axpyF32") (param $a f64) (param $x i32) (param $y i32) (param $n i32)
    (local $i i32)
    (local $av v128)
    (local.set $av (f64x2.splat (local.get $a)))
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.gt_s (i32.add (local.get $i) (i32.const 2)) (local.get $n)))
        (v128.store (local.get $y)
          (f64x2.add (v128.load (local.get $y))
            (f64x2.mul (local.get $av) (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $x))))))
        (local.set $x (i32.add (local.get $x) (i32.const 8)))
        (local.set $y (i32.add (local.get $y) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $pairs)))
    (if (i32.lt_s (local.get $i) (local.get $n))
      (then
        (f64.store (local.get $y)
          (f64.add (f64.load (local.get $y)) (f64.mul (local.get $a) (f64.promote_f32 (f32.load (local.get $x)))))))))

  ;; Σ a[i]·b[i] in four running sums (i mod 4, the tail into the first), then s0 + s1 + (s2 + s3)
  (func $dot (export "dot") (param $a i32) (param $b i32) (param $n i32) (result f64)
    (local $i i32)
    (local $lo v128)
    (local $hi v128)
    (local $s0 f64)
    (block $quadsDone
      (loop $quads
        (br_if $quadsDone (i32.gt_s (i32.add (local.get $i) (i32.const 4)) (local.get $n)))
        (local.set $lo (f64x2.add (local.get $lo) (f64x2.mul (v128.load (local.get $a)) (v128.load (local.get $b)))))
        (local.set $hi (f64x2.add (local.get $hi) (f64x2.mul (v128.load offset=16 (local.get $a)) (v128.load offset=16 (local.get $b)))))
        (local.set $a (i32.add (local.get $a) (i32.const 32)))
        (local.set $b (i32.add (local.get $b) (i32.const 32)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $quads)))
    (local.set $s0 (f64x2.extract_lane 0 (local.get $lo)))
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_s (local.get $i) (local.get $n)))
        (local.set $s0 (f64.add (local.get $s0) (f64.mul (f64.load (local.get $a)) (f64.load (local.get $b)))))
        (local.set $a (i32.add (local.get $a) (i32.const 8)))
        (local.set $b (i32.add (local.get $b) (i32.const 8)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $tail)))
    (f64.add
      (f64.add (local.get $s0) (f64x2.extract_lane 1 (local.get $lo)))
      (f64.add (f64x2.extract_lane 0 (local.get $hi)) (f64x2.extract_lane 1 (local.get $hi)))))

  ;; out (rows × cols, zeroed by the caller) = A · B for CSR A (indptr i32, indices i32, values f64) and dense B
  (func (export "csrTimesDense") (param $indptr i32) (param $indices i32) (param $values i32) (param $rows i32) (param $b i32) (param $cols i32) (param $out i32)
    (local $i i32)
    (local $p i32)
    (local $end i32)
    (local $rowBytes i32)
    (local.set $rowBytes (i32.shl (local.get $cols) (i32.const 3)))
    (block $rowsDone
      (loop $rowsLoop
        (br_if $rowsDone (i32.ge_s (local.get $i) (local.get $rows)))
        (local.set $p (i32.load (i32.add (local.get $indptr) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $end (i32.load (i32.add (local.get $indptr) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 2)))))
        (block $entriesDone
          (loop $entries
            (br_if $entriesDone (i32.ge_s (local.get $p) (local.get $end)))
            (call $axpy
              (f64.load (i32.add (local.get $values) (i32.shl (local.get $p) (i32.const 3))))
              (i32.add (local.get $b) (i32.mul (i32.load (i32.add (local.get $indices) (i32.shl (local.get $p) (i32.const 2)))) (local.get $rowBytes)))
              (i32.add (local.get $out) (i32.mul (local.get $i) (local.get $rowBytes)))
              (local.get $cols))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $entries)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rowsLoop))))

  ;; out (A's cols × cols, zeroed by the caller) = Aᵀ · B for CSR A and dense B (A's rows × cols)
  (func (export "csrTransposeTimesDense") (param $indptr i32) (param $indices i32) (param $values i32) (param $rows i32) (param $b i32) (param $cols i32) (param $out i32)
    (local $i i32)
    (local $p i32)
    (local $end i32)
    (local $rowBytes i32)
    (local.set $rowBytes (i32.shl (local.get $cols) (i32.const 3)))
    (block $rowsDone
      (loop $rowsLoop
        (br_if $rowsDone (i32.ge_s (local.get $i) (local.get $rows)))
        (local.set $p (i32.load (i32.add (local.get $indptr) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $end (i32.load (i32.add (local.get $indptr) (i32.shl (i32.add (local.get $i) (i32.const 1)) (i32.const 2)))))
        (block $entriesDone
          (loop $entries
            (br_if $entriesDone (i32.ge_s (local.get $p) (local.get $end)))
            (call $axpy
              (f64.load (i32.add (local.get $values) (i32.shl (local.get $p) (i32.const 3))))
              (i32.add (local.get $b) (i32.mul (local.get $i) (local.get $rowBytes)))
              (i32.add (local.get $out) (i32.mul (i32.load (i32.add (local.get $indices) (i32.shl (local.get $p) (i32.const 2)))) (local.get $rowBytes)))
              (local.get $cols))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $entries)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rowsLoop))))

  ;; out (rows × cols, zeroed by the caller) = A · B for dense A (rows × inner) and B (inner × cols), zero entries of A skipped
  (func (export "matMul") (param $a i32) (param $rows i32) (param $inner i32) (param $b i32) (param $cols i32) (param $out i32)
    (local $i i32)
    (local $k i32)
    (local $v f64)
    (local $rowBytes i32)
    (local.set $rowBytes (i32.shl (local.get $cols) (i32.const 3)))
    (block $rowsDone
      (loop $rowsLoop
        (br_if $rowsDone (i32.ge_s (local.get $i) (local.get $rows)))
        (local.set $k (i32.const 0))
        (block $innerDone
          (loop $innerLoop
            (br_if $innerDone (i32.ge_s (local.get $k) (local.get $inner)))
            (local.set $v (f64.load (i32.add (local.get $a) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $inner)) (local.get $k)) (i32.const 3)))))
            (if (f64.ne (local.get $v) (f64.const 0))
              (then
                (call $axpy (local.get $v)
                  (i32.add (local.get $b) (i32.mul (local.get $k) (local.get $rowBytes)))
                  (i32.add (local.get $out) (i32.mul (local.get $i) (local.get $rowBytes)))
                  (local.get $cols))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $innerLoop)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rowsLoop))))

  ;; Modified Gram–Schmidt on the rows of t (cols rows of `rows` f64: each a column of the tall
  ;; matrix), as orthonormalizeColumns does: norms (cols f64) is scratch for the original norms.
  (func (export "orthonormalize") (param $t i32) (param $rows i32) (param $cols i32) (param $norms i32)
    (local $j i32)
    (local $k i32)
    (local $r i32)
    (local $rowBytes i32)
    (local $jBase i32)
    (local $kBase i32)
    (local $norm f64)
    (local $inv f64)
    (local $projection f64)
    (local $at i32)
    (local.set $rowBytes (i32.shl (local.get $rows) (i32.const 3)))
    (block $normsDone
      (loop $normsLoop
        (br_if $normsDone (i32.ge_s (local.get $j) (local.get $cols)))
        (local.set $jBase (i32.add (local.get $t) (i32.mul (local.get $j) (local.get $rowBytes))))
        (f64.store (i32.add (local.get $norms) (i32.shl (local.get $j) (i32.const 3)))
          (f64.sqrt (call $dot (local.get $jBase) (local.get $jBase) (local.get $rows))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $normsLoop)))
    (local.set $j (i32.const 0))
    (block $colsDone
      (loop $colsLoop
        (br_if $colsDone (i32.ge_s (local.get $j) (local.get $cols)))
        (local.set $jBase (i32.add (local.get $t) (i32.mul (local.get $j) (local.get $rowBytes))))
        (local.set $norm (f64.sqrt (call $dot (local.get $jBase) (local.get $jBase) (local.get $rows))))
        (if (i32.or
              (f64.le (local.get $norm) (f64.mul (f64.const 1e-10) (f64.load (i32.add (local.get $norms) (i32.shl (local.get $j) (i32.const 3))))))
              (f64.eq (local.get $norm) (f64.const 0)))
          (then
            (memory.fill (local.get $jBase) (i32.const 0) (local.get $rowBytes)))
          (else
            (local.set $inv (f64.div (f64.const 1) (local.get $norm)))
            (local.set $r (i32.const 0))
            (block $scaleDone
              (loop $scale
                (br_if $scaleDone (i32.ge_s (local.get $r) (local.get $rows)))
                (local.set $at (i32.add (local.get $jBase) (i32.shl (local.get $r) (i32.const 3))))
                (f64.store (local.get $at) (f64.mul (f64.load (local.get $at)) (local.get $inv)))
                (local.set $r (i32.add (local.get $r) (i32.const 1)))
                (br $scale)))
            (local.set $k (i32.add (local.get $j) (i32.const 1)))
            (block $laterDone
              (loop $later
                (br_if $laterDone (i32.ge_s (local.get $k) (local.get $cols)))
                (local.set $kBase (i32.add (local.get $t) (i32.mul (local.get $k) (local.get $rowBytes))))
                (local.set $projection (call $dot (local.get $jBase) (local.get $kBase) (local.get $rows)))
                (if (f64.ne (local.get $projection) (f64.const 0))
                  (then (call $axpy (f64.neg (local.get $projection)) (local.get $jBase) (local.get $kBase) (local.get $rows))))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $later)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $colsLoop)))))
