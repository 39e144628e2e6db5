// RUN: mx-opt %s | FileCheck %s
// CHECK: mx_gfx950.configs

// Tuned gfx950 configurations, consulted by the resolver before its
// heuristic (#mx_gfx950.target's config_table; docs/guides/tuning.md).
// Written by bench/mx_tune.py.
module attributes {mx_gfx950.configs = [
]} {
}
