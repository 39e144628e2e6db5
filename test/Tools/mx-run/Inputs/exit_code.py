#!/usr/bin/env python3
"""Runs a command, passes its output through and prints its exit code.

lit's internal shell cannot print $?; `not` only tells zero from non-zero.
This prints "exit code N" last (on stdout) and itself exits 0, so a test can
check that a mismatch exits with 1 and a usage error with 2.

usage: exit_code.py COMMAND [ARGS...]
"""

import subprocess
import sys

result = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
sys.stdout.write(result.stdout.decode(errors="replace"))
print("exit code %d" % result.returncode)
