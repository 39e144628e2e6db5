// mx-pipeline-doc takes no arguments: any is a usage error with exit code 2
// (issue 37: every tool exits non-zero after an error); without arguments it
// writes the pipelines' page and exits 0.

// RUN: %python %S/../mx-run/Inputs/exit_code.py mx-pipeline-doc extra | FileCheck %s --check-prefix=USAGE
// USAGE: usage: mx-pipeline-doc > Pipelines.md
// USAGE-NEXT: exit code 2

// RUN: %python %S/../mx-run/Inputs/exit_code.py mx-pipeline-doc | FileCheck %s --check-prefix=PAGE
// PAGE-LABEL: # mx pass pipelines
// PAGE: ## `mx-cpu-pipeline`
// PAGE: ## `mx-gfx950-pipeline`
// PAGE: exit code 0
