;; Integer dot products of one quantized query with every row of an int8 matrix (WebAssembly
;; SIMD): the rows' 16 bytes are widened to two i16x8 and multiplied-and-paired against the
;; query's i16 lanes (i32x4.dot_i16x8_s), two independent accumulators. Exact in i32 for
;; |row| ≤ 127, |query| ≤ 127 and up to 65,536 dimensions.
;; Compiled by scripts/build-wasm.ts into dot-rows-i8.wasm.ts.
;;
;; dotRowsI8(matrix, query, rows, dims, out): out[r] = Σ_d matrix[r·dims + d] · query[d]
;;   matrix: rows × dims int8; query: dims int16; out: rows int32; byte offsets, 16-byte aligned
;;   dims: a multiple of 16 (the caller pads rows with zeros)
(module
  (memory (export "memory") 1)
  (func (export "dotRowsI8") (param $matrix i32) (param $query i32) (param $rows i32) (param $dims i32) (param $out i32)
    (local $row i32)
    (local $p i32)
    (local $q i32)
    (local $end i32)
    (local $v v128)
    (local $a v128)
    (local $b v128)
    (local.set $p (local.get $matrix))
    (block $done
      (loop $rowsLoop
        (br_if $done (i32.ge_u (local.get $row) (local.get $rows)))
        (local.set $a (v128.const i32x4 0 0 0 0))
        (local.set $b (v128.const i32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (local.set $end (i32.add (local.get $p) (local.get $dims)))
        (block $rowDone
          (loop $lanes
            (br_if $rowDone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $v (v128.load (local.get $p)))
            (local.set $a
              (i32x4.add (local.get $a) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (local.get $q)))))
            (local.set $b
              (i32x4.add (local.get $b) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $q)))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (br $lanes)))
        (local.set $a (i32x4.add (local.get $a) (local.get $b)))
        (i32.store
          (i32.add (local.get $out) (i32.shl (local.get $row) (i32.const 2)))
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $a)) (i32x4.extract_lane 1 (local.get $a)))
            (i32.add (i32x4.extract_lane 2 (local.get $a)) (i32x4.extract_lane 3 (local.get $a)))))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $rowsLoop)))))
