# Runs every GoogleTest binary named *Tests under build/unittests through lit,
# so one lit invocation counts each gtest case as a test.
import os

import lit.formats

config.name = "RELAX-Unit"
config.suffixes = []
config.test_source_root = config.unittest_dir
config.test_exec_root = config.unittest_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")
