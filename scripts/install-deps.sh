#!/usr/bin/env bash
# Installs the Debian 12 packages clothview builds and tests with. Idempotent: does nothing when
# everything is present; otherwise runs apt-get update once and installs what is missing.
set -euo pipefail

packages=(
  # toolchain
  cmake g++ ninja-build pkg-config
  # core, command line, files and tests
  libglm-dev catch2 libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libstb-dev libpng-dev libassimp-dev
  # parameter sweeps: GNU parallel on one machine; a one-node Slurm cluster for its test
  parallel slurmctld slurmd slurm-client munge
  # the viewer: window, GL loader, UI; Mesa's software GL and EGL for machines without a GPU
  libglfw3-dev libepoxy-dev libimgui-dev libgl1-mesa-dri libegl-mesa0
  # end-to-end tests: a real X display, mouse and keys, screenshots, JSON checks, OBJ import
  xvfb xauth xdotool imagemagick fonts-dejavu-core python3 assimp-utils assimp-testmodels
  # recording MP4 and checking it
  ffmpeg
  # fuzzing: clang with libFuzzer; the format check
  clang libclang-rt-14-dev clang-format
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
