"""cc_fuzzer: a libFuzzer target, built only with --config=fuzz (tools/fuzz.sh)."""

def cc_fuzzer(name, deps = []):
    """name.cc linked with libFuzzer's main; manual, so gcc builds of //... skip it."""
    native.cc_binary(
        name = name,
        testonly = True,
        srcs = [name + ".cc"],
        linkopts = ["-fsanitize=fuzzer"],
        tags = ["manual"],
        deps = [
            ":fuzz_input",
            "@com_google_absl//absl/numeric:int128",
            "@com_google_absl//absl/status",
            "@com_google_absl//absl/status:statusor",
            "@com_google_absl//absl/strings",
        ] + deps,
    )
