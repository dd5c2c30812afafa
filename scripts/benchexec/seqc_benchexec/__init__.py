# BenchExec tool-info package for seqc (see ../README.md).
