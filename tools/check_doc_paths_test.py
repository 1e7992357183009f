#!/usr/bin/env python3
"""Self-test of tools/check_doc_paths.py: a small tree whose docs and
comments name files in each way the checker takes, then the same tree with
a planted path that names nothing. tools/test.sh runs it.

  python3 tools/check_doc_paths_test.py
"""
import importlib.util
import pathlib
import unittest

_SPEC = importlib.util.spec_from_file_location(
    "check_doc_paths", pathlib.Path(__file__).resolve().parent / "check_doc_paths.py")
check_doc_paths = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(check_doc_paths)

CLEAN = {
    "docs/ops.md": "See `torch_extension/internal/kernels.cc`, internal/kernels.cc and "
                   "[promotion](promotion.md); PyTorch's `ufunc/add.h`; writes OUT/summary.md.",
    "docs/promotion.md": "",
    "torch_extension/internal/kernels.cc":
        '#include "absl/strings/str_cat.h"\n// The class docs/ops.md states.\n'
        'const char* kName = "not_a_comment.h";\n',
    "tools/run.sh": "# Writes nothing; reads ../docs/promotion.md.\necho done.md\n",
    "tools/judge.py": 'TEXT = "# not a comment: gone.md"  # reads docs/ops.md\n',
}


def missing(tree):
    return check_doc_paths.missing_paths(sorted(tree), tree.__getitem__)


class CheckDocPathsTest(unittest.TestCase):
    def test_a_tree_whose_paths_exist_passes(self):
        self.assertEqual(missing(CLEAN), [])

    def test_a_planted_path_in_a_doc_fails(self):
        tree = dict(CLEAN, **{"docs/ops.md": CLEAN["docs/ops.md"] + " See internal/gone.cc."})
        self.assertEqual(missing(tree), [("docs/ops.md", "internal/gone.cc")])

    def test_a_planted_path_in_a_comment_fails(self):
        tree = dict(CLEAN)
        tree["torch_extension/internal/kernels.cc"] += "// As docs/gone.md says.\n"
        self.assertEqual(missing(tree),
                         [("torch_extension/internal/kernels.cc", "docs/gone.md")])

    def test_a_planted_path_in_a_shell_comment_fails(self):
        tree = dict(CLEAN, **{"tools/run.sh": "# Reads tools/gone.py.\n"})
        self.assertEqual(missing(tree), [("tools/run.sh", "tools/gone.py")])


    def test_a_planted_path_in_a_python_comment_fails(self):
        tree = dict(CLEAN, **{"tools/judge.py": "x = 1  # as tools/gone.py does\n"})
        self.assertEqual(missing(tree), [("tools/judge.py", "tools/gone.py")])


if __name__ == "__main__":
    unittest.main()
