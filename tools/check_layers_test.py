#!/usr/bin/env python3
"""Self-test of tools/check_layers.py: plants each kind of bad include in a
small git tree and expects the checker to report it, and to pass the same
tree without it. Takes a second; tools/test.sh runs it.

  python3 tools/check_layers_test.py
"""
import contextlib
import importlib.util
import io
import pathlib
import subprocess
import tempfile
import unittest

_SPEC = importlib.util.spec_from_file_location(
    "check_layers", pathlib.Path(__file__).resolve().parent / "check_layers.py")
check_layers = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(check_layers)

# A tree whose includes all run the right way: across layers, in component
# order, into internal/ only from its own tree, and a test that looks inside.
CLEAN = {
    "oneflow_promote/dtype.h": ['"oneflow_promote/numeric_types.h"', '"absl/status/statusor.h"'],
    "oneflow_promote/numeric_types.h": [],
    "oneflow_promote/promotion/policy.h": ['"oneflow_promote/dtype.h"', '"oneflow_promote/promotion/internal/lattice.h"'],
    "oneflow_promote/promotion/internal/lattice.h": ['"oneflow_promote/dtype.h"'],
    "oneflow_promote/promotion/result_type.h": ['"oneflow_promote/promotion/policy.h"'],
    "oneflow_promote/convert.h": ['"oneflow_promote/numeric_types.h"'],
    "kernels/cpu_cast.h": ['"oneflow_promote/convert.h"', '"kernels/internal/strided_layout.h"'],
    "kernels/cast.h": ['"oneflow_promote/dtype.h"'],
    "kernels/cast.cc": ['"kernels/cast.h"', '"kernels/cpu_cast.h"'],
    "kernels/internal/strided_layout.h": [],
    "oneflow_promote/ops/op_list.h": [],
    "oneflow_promote/ops/op_rules.h": ['"oneflow_promote/ops/op_list.h"',
                                       '"oneflow_promote/promotion/result_type.h"'],
    "oneflow_promote/ops/tensor_processor.h": ['"oneflow_promote/ops/op_rules.h"'],
    "oneflow_promote/sbp/sbp.h": ['"oneflow_promote/ops/op_list.h"'],
    "functional/internal/op_math.h": ['"oneflow_promote/convert.h"'],
    "functional/op_kernels.cc": ['"kernels/cpu_cast.h"', '"functional/internal/op_math.h"',
                                 '"oneflow_promote/ops/op_rules.h"'],
    "tests/cast_vs_torch.cc": ['"kernels/internal/strided_layout.h"', '"gtest/gtest.h"'],
}


class CheckLayersTest(unittest.TestCase):

    def check(self, planted=None, untracked=None):
        """Runs the checker on CLEAN plus `planted` (path: includes, tracked)
        and `untracked` (new files git does not ignore); returns its problems."""
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            subprocess.run(["git", "init", "-q", str(root)], check=True)
            files = dict(CLEAN)
            files.update(planted or {})
            for rel, includes in list(files.items()) + list((untracked or {}).items()):
                path = root / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("// planted\n" + "".join(f"#include {i}\n" for i in includes))
            subprocess.run(["git", "-C", str(root), "add", "--", *files], check=True)
            with contextlib.redirect_stdout(io.StringIO()):
                problems, checked = check_layers.check(root)
            self.assertGreater(checked, 0)
            return problems

    def assertOneProblem(self, problems, *fragments):
        self.assertEqual(len(problems), 1, problems)
        for fragment in fragments:
            self.assertIn(fragment, problems[0])

    def test_clean_tree_passes(self):
        self.assertEqual(self.check(), [])

    def test_upward_include(self):
        problems = self.check({"oneflow_promote/promotion/policy.h": ['"oneflow_promote/dtype.h"',
                                                            '"kernels/cast.h"']})
        self.assertOneProblem(problems, "oneflow_promote/promotion/policy.h:3: includes kernels/cast.h",
                              "runs up a layer")

    def test_kernels_including_the_functional_frontend(self):
        problems = self.check({"kernels/cast.cc": ['"kernels/cast.h"', '"functional/op_kernels.h"']},
                              untracked={"functional/op_kernels.h": []})
        self.assertOneProblem(problems, "kernels/cast.cc:3: includes functional/op_kernels.h",
                              "runs up a layer")

    def test_promotion_including_the_op_rules(self):
        problems = self.check({"oneflow_promote/promotion/result_type.h": [
            '"oneflow_promote/promotion/policy.h"', '"oneflow_promote/ops/op_list.h"']})
        self.assertOneProblem(problems, "result_type.h:3: includes oneflow_promote/ops/op_list.h",
                              "a later component of the same layer")

    def test_library_file_including_a_test_helper(self):
        problems = self.check({"kernels/cast.h": ['"tests/cast_reference.h"']},
                              untracked={"tests/cast_reference.h": []})
        self.assertOneProblem(problems, "kernels/cast.h:2: includes tests/cast_reference.h",
                              "runs up a layer")

    def test_same_layer_include_against_the_order(self):
        problems = self.check({"oneflow_promote/ops/op_rules.h": [
            '"oneflow_promote/ops/op_list.h"', '"oneflow_promote/ops/tensor_processor.h"']})
        self.assertOneProblem(problems, "oneflow_promote/ops/op_rules.h:3: includes "
                              "oneflow_promote/ops/tensor_processor.h",
                              "a later component of the same layer")

    def test_rules_folder_including_a_kernel(self):
        problems = self.check({"oneflow_promote/ops/tensor_processor.h": [
            '"oneflow_promote/ops/op_rules.h"', '"kernels/cast.h"']})
        self.assertOneProblem(problems, "oneflow_promote/ops/tensor_processor.h:3: includes "
                              "kernels/cast.h", "runs up a layer")

    def test_internal_header_of_another_tree(self):
        problems = self.check({"functional/op_kernels.cc": [
            '"kernels/cpu_cast.h"', '"kernels/internal/strided_layout.h"']})
        self.assertOneProblem(problems, "op_kernels.cc:3: includes kernels/internal/strided_layout.h",
                              "kernels/internal/ is private to kernels/")

    def test_include_that_names_no_file(self):
        problems = self.check({"kernels/cast.h": ['"oneflow_promote/dtype.h"',
                                                  '"oneflow_promote/gone.h"']})
        self.assertOneProblem(problems, "kernels/cast.h:3: includes oneflow_promote/gone.h",
                              "neither a file of the tree nor a known external library")

    def test_file_in_no_component(self):
        problems = self.check(untracked={"oneflow_promote/stray.h": []})
        self.assertOneProblem(problems, "oneflow_promote/stray.h: in no component")


if __name__ == "__main__":
    unittest.main()
