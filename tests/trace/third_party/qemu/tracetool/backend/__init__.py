# pvomp test fixture: NOT a QEMU file.  An empty package marker standing in
# for QEMU's scripts/tracetool/backend/__init__.py (simpletrace.py only
# imports tracetool.backend.simple.is_string from this package).
