#!/usr/bin/env bash
# Bad input through the galaxy program: broken HDF5 snapshots and look-alikes given to
# --data, and bad --snapshot-every/--snapshot-dir values. Each must end with one clear
# message naming the file (and the dataset) and a non-zero exit, never a crash.
set -u
bin="$1"
gen="$2"
tmp="${GC_TEST_TMP:-/tmp}/snapshots_cli"
rm -rf "$tmp"
mkdir -p "$tmp"
fail=0; pass=0

# expect CODE PATTERN -- ARGS...: exit status CODE, output matching PATTERN, exactly one
# error line, and no sanitizer report.
expect() {
    local code="$1" pattern="$2"; shift 3
    local out rc nerr
    out=$("$bin" "$@" 2>&1 </dev/null); rc=$?
    nerr=$(grep -c "error:" <<<"$out")
    if [ "$rc" -ne "$code" ] || ! grep -qE -- "$pattern" <<<"$out" ||
       { [ "$code" -ne 0 ] && [ "$nerr" -ne 1 ]; } || grep -q "Sanitizer" <<<"$out"; then
        echo "FAIL: galaxy $* -> exit $rc (want $code), $nerr error lines, output:"
        echo "$out" | head -8
        echo "      (wanted pattern: $pattern)"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

if ! "$gen" "$tmp"; then
    echo "FAIL: the generator of broken files failed"
    exit 1
fi
run=(--steps 1 --backend cpu)
d="$tmp"

expect 0 "snapshot of 9 bodies at t = 0.5" -- --data "$d/good.hdf5" "${run[@]}"
# GADGET's MassTable stands in for a missing Masses dataset: the three disks weigh 0.75.
expect 0 "snapshot of 9 bodies" -- --data "$d/masstable.hdf5" "${run[@]}" --save "$d/masstable.tab"
if ! awk '!/^#/ { if (++n <= 3 && $1 != 0.75) bad = 1; if (n > 3 && $1 == 0.75) bad = 1 }
          END { exit bad || n != 9 }' "$d/masstable.tab"; then
    echo "FAIL: masstable.hdf5: disks should weigh 0.75, the rest not:"; cat "$d/masstable.tab"
    fail=$((fail + 1))
fi
# Another writer (h5py): chunked, deflated datasets, a UTF-8 variable-length Component,
# signed IDs out of order, no GalaxyIndex.
corpus="$(cd "$(dirname "$0")/../fuzz/snapshot_hdf5" && pwd)"
expect 0 "snapshot of 5 bodies at t = 1.5" -- --data "$corpus/h5py_chunked_vlen.hdf5" "${run[@]}"
# Its string heap corrupted (found by fuzzing): libhdf5 would loop forever on the first and
# read past its buffer on the second; the reader refuses both before libhdf5 decodes them.
for f in libhdf5_gheap_zero_free_space libhdf5_gheap_object_past_end; do
    expect 2 "$f.hdf5: corrupt HDF5 global heap \(variable-length strings\) at byte 2048" -- \
        --data "$corpus/$f.hdf5" "${run[@]}"
done
# A root group whose local heap address is undefined (found by fuzzing): libhdf5 1.10 itself
# crashed on it (NULL memcpy in its metadata accumulator); the reader's own file driver has
# no accumulator and refuses the address.
expect 2 "libhdf5_local_heap_undefined_address.hdf5: cannot look up /Header: the file's group structure is corrupt" -- \
    --data "$corpus/libhdf5_local_heap_undefined_address.hdf5" "${run[@]}"
expect 2 "missing_coordinates.hdf5: PartType1/Coordinates is missing" -- --data "$d/missing_coordinates.hdf5" "${run[@]}"
expect 2 "missing_masses.hdf5: PartType2/Masses is missing and MassTable\[2\] is 0" -- --data "$d/missing_masses.hdf5" "${run[@]}"
expect 2 "missing_header.hdf5: no /Header group: not a snapshot" -- --data "$d/missing_header.hdf5" "${run[@]}"
expect 2 "other_kind.hdf5: no /Header group: not a snapshot" -- --data "$d/other_kind.hdf5" "${run[@]}"
expect 2 "missing_group.hdf5: /PartType3 is missing" -- --data "$d/missing_group.hdf5" "${run[@]}"
expect 2 "wrong_shape.hdf5: PartType2/Velocities has shape 3 x 2, expected 3 x 3" -- --data "$d/wrong_shape.hdf5" "${run[@]}"
expect 2 "count_mismatch.hdf5: PartType1/ParticleIDs has shape 3, expected 4" -- --data "$d/count_mismatch.hdf5" "${run[@]}"
expect 2 "split.hdf5: /Header NumPart_Total\[1\] .* only single-file snapshots" -- --data "$d/split.hdf5" "${run[@]}"
expect 2 "gas.hdf5: holds 5 bodies of PartType0 \(gas\)" -- --data "$d/gas.hdf5" "${run[@]}"
expect 2 "nan.hdf5: PartType1/Coordinates\[1\]\[2\] is not a finite float" -- --data "$d/nan.hdf5" "${run[@]}"
expect 2 "inf.hdf5: PartType3/Velocities\[2\]\[0\] is not a finite float" -- --data "$d/inf.hdf5" "${run[@]}"
expect 2 "negative_mass.hdf5: PartType2/Masses\[1\]: mass must be positive and finite, got -0.5" -- --data "$d/negative_mass.hdf5" "${run[@]}"
expect 2 "zero_mass.hdf5: PartType3/Masses\[0\]: mass must be positive" -- --data "$d/zero_mass.hdf5" "${run[@]}"
expect 2 "duplicate_ids.hdf5: PartType3/ParticleIDs\[2\] = 1 appears twice" -- --data "$d/duplicate_ids.hdf5" "${run[@]}"
expect 2 "id_gap.hdf5: PartType2/ParticleIDs\[0\] = 10 is out of range: IDs must be 1 to 9" -- --data "$d/id_gap.hdf5" "${run[@]}"
expect 2 "bad_galaxy.hdf5: PartType1/GalaxyIndex\[0\] = 7, expected 0 or 1" -- --data "$d/bad_galaxy.hdf5" "${run[@]}"
expect 2 "nan_time.hdf5: /Header Time is not finite" -- --data "$d/nan_time.hdf5" "${run[@]}"
expect 1 "truncated.hdf5: not a readable HDF5 file \(truncated or corrupt\?\)" -- --data "$d/truncated.hdf5" "${run[@]}"
expect 2 "text.hdf5: not an HDF5 file" -- --data "$d/text.hdf5" "${run[@]}"
# Each message names the file, the object and the real cause.
mkdir -p "$d/folder.hdf5"
expect 2 "folder.hdf5: is a folder, not a file of bodies" -- --data "$d/folder.hdf5" "${run[@]}"
expect 0 "userblock.hdf5: snapshot of 9 bodies at t = 0.5" -- --data "$d/userblock.hdf5" "${run[@]}"
expect 2 "dataset_group.hdf5: /PartType1 is a dataset, not a group of bodies" -- --data "$d/dataset_group.hdf5" "${run[@]}"
expect 2 "rank3.hdf5: PartType1/Coordinates has shape 3 x 3 x 1, expected 3 x 3" -- --data "$d/rank3.hdf5" "${run[@]}"
expect 2 "negative_id.hdf5: PartType1/ParticleIDs\[0\] = -1 is out of range" -- --data "$d/negative_id.hdf5" "${run[@]}"
expect 2 "huge_time.hdf5: /Header Time = 1e\+308 is out of range" -- --data "$d/huge_time.hdf5" "${run[@]}"
# A corrupt chunk index claiming 4 GB for five IDs (found by fuzzing under a memory limit):
# refused before libhdf5 allocates what it claims.
expect 2 "oom_chunk_size.hdf5: PartType2/ParticleIDs claims more storage than its values can fill" -- --data "$corpus/oom_chunk_size.hdf5" "${run[@]}"
# Chunks that decode to less than a whole chunk, which libhdf5 1.10 reads past (the first
# found by fuzzing: a filter mask saying deflate was skipped): refused before the read.
expect 2 "libhdf5_chunk_filter_skipped.hdf5: PartType2/Coordinates has a chunk that does not decode to one whole chunk of values" -- --data "$corpus/libhdf5_chunk_filter_skipped.hdf5" "${run[@]}"
for f in chunk_plain_short chunk_filter_skipped chunk_short_deflate; do
    expect 2 "$f.hdf5: PartType1/Coordinates has a chunk that does not decode to one whole chunk of values" -- --data "$d/$f.hdf5" "${run[@]}"
done
expect 2 "chunk_not_deflate.hdf5: PartType1/Coordinates has a chunk that does not decompress" -- --data "$d/chunk_not_deflate.hdf5" "${run[@]}"
# Whole chunks through shuffle, deflate and Fletcher-32 read as written.
expect 0 "filters.hdf5: snapshot of 9 bodies at t = 0.5" -- --data "$d/filters.hdf5" "${run[@]}" --save "$d/filters.tab"
"$bin" --data "$d/good.hdf5" "${run[@]}" --save "$d/good.tab" >/dev/null 2>&1
if ! cmp -s "$d/filters.tab" "$d/good.tab"; then
    echo "FAIL: filters.hdf5 does not read as good.hdf5 does"; fail=$((fail + 1))
fi
# A 74-byte file whose superblock claims an 800 MB driver block past its end (found by
# fuzzing): refused at once, not read as 800 MB of zeros (the corpus replay checks memory).
expect 1 "libhdf5_driver_block_800mb.hdf5: not a readable HDF5 file \(truncated or corrupt\?\)" -- --data "$corpus/libhdf5_driver_block_800mb.hdf5" "${run[@]}"
# A local heap claiming 4 GB (found by fuzzing): libhdf5 reserves it, fails to read it, and
# the reader says so.
expect 2 "libhdf5_local_heap_4gb.hdf5: cannot look up /Header: the file's group structure is corrupt" -- --data "$corpus/libhdf5_local_heap_4gb.hdf5" "${run[@]}"
# Values that are not the file's own are never loaded (they were, as zeros or as another
# file's bytes): external storage (/dev/zero; a 16-byte file), chunks never written, a
# virtual dataset (another file's values), a filter this libhdf5 lacks (h5py's LZF).
for f in external_zero external_file; do
    expect 2 "$f.hdf5: PartType1/Coordinates keeps its values in external files: refused" -- --data "$d/$f.hdf5" "${run[@]}"
done
expect 2 "unwritten_chunks.hdf5: PartType1/Coordinates has chunks that were never written \(they would read as zeros\)" -- --data "$d/unwritten_chunks.hdf5" "${run[@]}"
expect 2 "virtual.hdf5: PartType1/Coordinates is a virtual dataset .*: virtual datasets not supported" -- --data "$d/virtual.hdf5" "${run[@]}"
expect 2 "lzf.hdf5: PartType1/Coordinates is compressed with h5py's LZF filter: LZF filter not available" -- --data "$d/lzf.hdf5" "${run[@]}"
# Legal files read as the good one they were made from: chunks mostly padding, SWIFT's
# 7-type header; neutrinos are refused by name, as gas is.
for f in padded_chunks swift7; do
    expect 0 "$f.hdf5: snapshot of 9 bodies at t = 0.5" -- --data "$d/$f.hdf5" "${run[@]}" --save "$d/$f.tab"
    if ! cmp -s "$d/$f.tab" "$d/good.tab"; then
        echo "FAIL: $f.hdf5 does not read as good.hdf5 does"; fail=$((fail + 1))
    fi
done
expect 2 "swift7_neutrinos.hdf5: holds 2 bodies of PartType6 \(neutrinos\)" -- --data "$d/swift7_neutrinos.hdf5" "${run[@]}"
# /Parameters naming the integrator without a softening: the option's default, not 0.
expect 0 "no_softening.hdf5: snapshot of 9 bodies at t = 0.5 .*\(leapfrog, eps 0.025\)" -- --data "$d/no_softening.hdf5" "${run[@]}"
# Bodies the header does not count are not left out in silence.
expect 2 "uncounted.hdf5: /PartType2 holds 3 bodies but /Header NumPart_ThisFile\[2\] counts 0" -- --data "$d/uncounted.hdf5" "${run[@]}"
expect 1 "missing.hdf5: cannot open" -- --data "$d/missing.hdf5" "${run[@]}"

# The schedule's own options.
expect 2 "--snapshot-every expects a time > 0" -- --snapshot-every 0 "${run[@]}" -n 64
expect 2 "--snapshot-every expects a number" -- --snapshot-every nan "${run[@]}" -n 64
expect 2 "--snapshot-every expects a number" -- --snapshot-every -1 "${run[@]}" -n 64
expect 2 "--snapshot-every 0.105 is not a whole number of leapfrog steps of dt = 0.01" -- --snapshot-every 0.105 "${run[@]}" -n 64
expect 2 "--snapshot-dir only applies with --snapshot-every" -- --snapshot-dir "$d" "${run[@]}" -n 64
expect 2 "--snapshot-every applies to --steps, --headless and the window" -- --snapshot-every 0.1 --benchmark -n 64 --backend cpu
: > "$d/a_file"
expect 1 "--snapshot-dir $d/a_file: cannot write there: $d/a_file is not a folder" -- --snapshot-every 0.01 --snapshot-dir "$d/a_file" "${run[@]}" -n 64
expect 1 "--snapshot-dir $d/no/such: cannot write there: $d/no: No such file or directory" -- --snapshot-every 0.01 --snapshot-dir "$d/no/such" "${run[@]}" -n 64
# A whole number of steps, given with float rounding (dt = 0.01 is not exact in binary).
expect 0 "wrote $d/steps/snapshot_000003.hdf5 \(t = 0.21," -- --snapshot-every 0.07 --snapshot-dir "$d/steps" --steps 21 --backend cpu -n 64

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
