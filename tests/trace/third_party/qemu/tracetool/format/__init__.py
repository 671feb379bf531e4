# pvomp test fixture: NOT a QEMU file.  An empty package marker standing in
# for QEMU's scripts/tracetool/format/ (simpletrace.py only needs it to exist).
