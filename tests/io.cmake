# Snapshot I/O (HDF5), its command-line use, and the readers' fuzz corpora replayed (label "io").
gc_add_test(test_snapshot_hdf5 test_snapshot_hdf5.c)
set_tests_properties(test_snapshot_hdf5 PROPERTIES LABELS "io")
