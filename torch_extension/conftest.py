"""pytest hooks for the extension's tests: where a GPU is expected
(ONEFLOW_PROMOTE_EXPECT_GPU=1), a CUDA case that skips for want of one
fails, naming why."""

import os

import pytest

from cuda_cases import NO_CUDA


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if (report.skipped and os.environ.get("ONEFLOW_PROMOTE_EXPECT_GPU") == "1"
            and NO_CUDA in str(report.longrepr)):
        report.outcome = "failed"
        report.longrepr = f"ONEFLOW_PROMOTE_EXPECT_GPU=1, but this CUDA case skipped: {NO_CUDA}"
