// examples/mxfp8_training_step.mlir is the current rendering of
// bench/mxfp8_training.py's program (the one home of the training step).
// REQUIRES: mx-python
// RUN: %mx_python %mx_src_root/bench/mxfp8_training.py example | diff %mx_src_root/examples/mxfp8_training_step.mlir -
