# Cross-compiles for AArch64 Linux with Debian's aarch64-linux-gnu toolchain
# and the arm64 builds of the dependencies (multiarch: libabsl-dev:arm64 and
# the like, under /usr/lib/aarch64-linux-gnu); ctest runs the tests under
# qemu-user with / as the root: the arm64 libc that multiarch installed
# there must be the only one a test loads (mixed with the cross toolchain's
# copy under /usr/aarch64-linux-gnu, creating a thread hangs). tools/arm_check.sh
# uses it.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /)
