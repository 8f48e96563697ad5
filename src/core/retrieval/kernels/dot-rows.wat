;; Dot products of one query with every row of a matrix, four lanes at a time (WebAssembly
;; SIMD, f32x4), two independent accumulators so consecutive multiply-adds overlap.
;; Compiled by scripts/build-wasm.ts into dot-rows.wasm.ts.
;;
;; dotRows(matrix, query, rows, dims, out): out[r] = Σ_d matrix[r·dims + d] · query[d]
;; dotSelected(matrix, query, indices, count, dims, out): out[i] = the same sum for row indices[i]
;;   (the same operations in the same order, so the same bits as dotRows)
;;   matrix, query, out: byte offsets into memory, 16-byte aligned
;;   dims: a multiple of 8 (the caller pads rows with zeros)
(module
  (memory (export "memory") 1)
  (func (export "dotRows") (param $matrix i32) (param $query i32) (param $rows i32) (param $dims i32) (param $out i32)
    (local $row i32)
    (local $p i32)
    (local $q i32)
    (local $end i32)
    (local $rowBytes i32)
    (local $a v128)
    (local $b v128)
    (local.set $rowBytes (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $p (local.get $matrix))
    (block $done
      (loop $rowsLoop
        (br_if $done (i32.ge_u (local.get $row) (local.get $rows)))
        (local.set $a (v128.const f32x4 0 0 0 0))
        (local.set $b (v128.const f32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $end (i32.add (local.get $p) (local.get $rowBytes)))
        (block $rowDone
          (loop $lanes
            (br_if $rowDone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $a (f32x4.add (local.get $a) (f32x4.mul (v128.load (local.get $p)) (v128.load (local.get $q)))))
            (local.set $b
              (f32x4.add (local.get $b) (f32x4.mul (v128.load offset=16 (local.get $p)) (v128.load offset=16 (local.get $q)))))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (br $lanes)))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $row) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
            (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $rowsLoop)))) 
  (func (export "dotSelected") (param $matrix i32) (param $query i32) (param $indices i32) (param $count i32) (param $dims i32) (param $out i32)
    (local $i i32)
    (local $p i32)
    (local $q i32)
    (local $end i32)
    (local $rowBytes i32)
    (local $a v128)
    (local $b v128)
    (local.set $rowBytes (i32.shl (local.get $dims) (i32.const 2)))
    (block $done
      (loop $rowsLoop
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $p
          (i32.add (local.get $matrix)
            (i32.mul (i32.load (i32.add (local.get $indices) (i32.shl (local.get $i) (i32.const 2)))) (local.get $rowBytes))))
        (local.set $a (v128.const f32x4 0 0 0 0))
        (local.set $b (v128.const f32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $end (i32.add (local.get $p) (local.get $rowBytes)))
        (block $rowDone
          (loop $lanes
            (br_if $rowDone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $a (f32x4.add (local.get $a) (f32x4.mul (v128.load (local.get $p)) (v128.load (local.get $q)))))
            (local.set $b
              (f32x4.add (local.get $b) (f32x4.mul (v128.load offset=16 (local.get $p)) (v128.load offset=16 (local.get $q)))))
            (local.set $p (i32.add (local.get $p) (i32.const 32)))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (br $lanes)))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
            (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rowsLoop)))))
