#!/usr/bin/env bash
# Installs the Debian 12 packages mlvpipe needs to build, run and test.
# Usage: scripts/deps.sh [build|test]   (test adds the outside readers used by the test suite)
set -euo pipefail
want=${1:-build}
build_pkgs="build-essential meson ninja-build pkg-config clang lld
  libavcodec-dev libavformat-dev libavutil-dev liblz4-dev liblzma-dev libcmocka-dev libraw-dev
  libfuse3-dev"
# darktable + rawtherapee: outside DNG readers for tests/e2e/encode_darktable_rawtherapee.sh
# (44 packages, 45 MB download, 230 MB installed; about 8 s to install from a warm apt cache).
test_pkgs="ffmpeg dcraw libraw-bin libimage-exiftool-perl python3 llvm libclang-rt-14-dev
  darktable rawtherapee"
# Farm tests: GNU parallel (tests/e2e/farm_parallel.sh), a one-node Slurm cluster
# (tests/farm/slurm_up.sh): 11 packages, about 17 MB installed, 11 s to install (download
# included) on the development machine; openssh-server for parallel --sshlogin through a
# private sshd (tests/farm/sshd_up.sh): 5.6 s more.
test_pkgs="$test_pkgs parallel slurm-wlm munge openssh-server"
# tmux: a pseudo-terminal whose screen tests/e2e/cli_progress.sh reads (the progress display).
test_pkgs="$test_pkgs tmux"
# groff-base: renders the manual page in the man-page test (doc/check_man.py).
test_pkgs="$test_pkgs groff-base"
# openexr (exrheader, exrmaketiled) and libtiff-tools (tiffinfo): outside readers of the EXR and
# TIFF sequences in tests/e2e/cli_formats.sh.
test_pkgs="$test_pkgs openexr libtiff-tools"
# chromium: renders the `mlvpipe report` page headless (tests/e2e/report_browser.sh).
test_pkgs="$test_pkgs chromium"
# strace: tests/e2e/robust_signals.sh checks that the signal handlers come first in main().
test_pkgs="$test_pkgs strace"
# fuse3 (fusermount3, libfuse3.so.3 loaded by `mlvpipe mount`): tests/e2e/mount.sh mounts clips
# (it needs /dev/fuse, and skips without it).
test_pkgs="$test_pkgs fuse3"
# The arm64 C library and GCC runtime, and qemu-user: tests/checkasm/cross_arm64.sh cross-builds
# the kernel modules and checkasm with clang and lld (cross/aarch64-linux-gnu-clang.txt) and
# runs them under qemu-aarch64. 16 packages, 25 MB download, 141 MB installed (qemu-user 97),
# 85 s to install (apt-get update and download included) at load 24 on 2 CPUs.
# The GCC cross compiler (gcc-aarch64-linux-gnu, cross/aarch64-linux-gnu.txt) is optional:
# 6 packages, 31 MB more.
test_pkgs="$test_pkgs libc6-dev-arm64-cross libgcc-12-dev-arm64-cross qemu-user"
pkgs=$build_pkgs
[ "$want" = test ] && pkgs="$pkgs $test_pkgs"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
