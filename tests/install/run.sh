#!/usr/bin/env bash
# Installs the build into a scratch prefix, then builds and runs a consumer
# against it twice: with find_package(anvil) and with pkg-config.
# Usage: run.sh BUILD_DIR SCRATCH_DIR C_COMPILER [SANITIZE_FLAGS]
set -euo pipefail
build=$1 scratch=$2 cc=$3 sanitize=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch"
mkdir -p "$scratch"
prefix=$scratch/prefix

cmake --install "$build" --prefix "$prefix" > "$scratch/install.log"
for f in include/anvil/anvil.h include/anvil/status.h bin/anvil; do
  [[ -e $prefix/$f ]] || { echo "missing after install: $f"; exit 1; }
done
libdir=$(dirname "$(find "$prefix" -name 'libanvil.so' -o -name 'libanvil.a' | head -1)")
[[ -e $libdir/libanvil.a && -e $libdir/libanvil.so ]] || { echo "missing libanvil.a or libanvil.so"; exit 1; }
[[ -e $libdir/pkgconfig/anvil.pc ]] || { echo "missing anvil.pc"; exit 1; }
[[ -e $libdir/cmake/anvil/anvilConfig.cmake ]] || { echo "missing anvilConfig.cmake"; exit 1; }
if [[ -n $(find "$prefix/include" -name '*_internal.h') ]]; then
  echo "private headers were installed"; exit 1
fi

echo "== find_package(anvil)"
cmake -S "$here/consumer" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_EXE_LINKER_FLAGS="$sanitize" \
  > "$scratch/consumer-configure.log"
cmake --build "$scratch/consumer" > "$scratch/consumer-build.log"
"$scratch/consumer/consumer_shared"
"$scratch/consumer/consumer_static"
# The shared consumer really uses the shared library.
# (ldd's output is captured first: `ldd | grep -q` under pipefail fails when grep exits early.)
linked=$(ldd "$scratch/consumer/consumer_shared")
[[ $linked == *"$libdir/libanvil.so"* ]] || {
  echo "consumer_shared does not load the installed libanvil.so:"; echo "$linked"; exit 1; }

echo "== pkg-config anvil"
export PKG_CONFIG_PATH=$libdir/pkgconfig
flags=$(pkg-config --cflags --libs anvil)
# shellcheck disable=SC2086
"$cc" $sanitize "$here/consumer/main.c" $flags -o "$scratch/consumer_pc"
LD_LIBRARY_PATH=$libdir "$scratch/consumer_pc"
pkg-config --modversion anvil

echo "== a C++ consumer (-std=c++11 -pedantic -Werror)"
# The C compiler's own C++ driver: its sanitizer runtime is the one the library was built with.
if "$cc" --version 2> /dev/null | grep -q clang; then cxx=clang++; else cxx=g++; fi
if command -v "$cxx" > /dev/null; then
  # shellcheck disable=SC2086
  "$cxx" -std=c++11 -pedantic -Wall -Wextra -Werror $sanitize "$here/consumer/main.cpp" $flags -o "$scratch/consumer_cxx"
  LD_LIBRARY_PATH=$libdir "$scratch/consumer_cxx"
else
  echo "skipped: no C++ compiler ($cxx)"
fi

echo "== installed CLI"
LD_LIBRARY_PATH=$libdir "$prefix/bin/anvil" --version
# Its man pages and completion scripts, made from its option tables at build time.
for f in share/man/man1/anvil.1 share/man/man1/anvil-wait.1 share/man/man1/anvil-call.1 \
         share/bash-completion/completions/anvil share/zsh/site-functions/_anvil; do
  [[ -s $prefix/$f ]] || { echo "missing after install: $f"; exit 1; }
done
[[ -z $(find "$prefix" -name '*__complete*') ]] || { echo "the hidden __complete command has a page"; exit 1; }
bash -c 'source "$1" && complete -p anvil' sh "$prefix/share/bash-completion/completions/anvil"
echo "PASS install.consumer"
