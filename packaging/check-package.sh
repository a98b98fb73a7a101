#!/usr/bin/env bash
# Builds the Debian package, installs it as a user would (apt-get install ./entrena_*.deb), uses it,
# validates its desktop entry, AppStream metadata, man pages and completion, then removes it.
# CI runs it (.ci/run); it needs root, or sudo.
#
#   packaging/check-package.sh            build with the release preset, then check
#   packaging/check-package.sh FILE.deb   check a package built already
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[package check]\033[0m %s\n' "$*"; }
fail() { printf '\033[1m[package check]\033[0m FAILED: %s\n' "$*" >&2; exit 1; }
if [[ $(id -u) -eq 0 ]]; then as_root=(); else as_root=(sudo); fi

if [[ $# -ge 1 ]]; then
    deb=$1
else
    cmake --preset release
    cmake --build --preset release --target package
    deb=$(ls -t build/release/entrena_*.deb | head -n 1)
fi
[[ -f $deb ]] || fail "no package at '$deb'"
say "package: $deb"
[[ $(basename "$deb") =~ ^entrena_[0-9.]+-[0-9]+_[a-z0-9]+\.deb$ ]] || fail "not a Debian-style file name: $(basename "$deb")"

say "control fields"
control=$(dpkg-deb --field "$deb")
echo "$control"
grep -q '^Maintainer: .* <.*@.*>$' <<<"$control" || fail "no maintainer with an address"
grep -q '^Depends: .*libopenblas0-pthread' <<<"$control" || fail "Depends lacks libopenblas0-pthread"
grep -q '^Depends: .*libtorch' <<<"$control" || fail "Depends lacks LibTorch (dpkg-shlibdeps did not run?)"
grep -q '^Depends: .*libqt6' <<<"$control" || fail "Depends lacks Qt 6"
grep -q '^Recommends: dataset-fashion-mnist, qt6-translations-l10n$' <<<"$control" || fail "Recommends is not as promised"

say "contents"
contents=$(dpkg-deb --contents "$deb" | awk '{ print $NF }' | sed 's|^\./|/|')
for f in /usr/bin/entrena /usr/bin/entrena-cli \
    /usr/share/applications/io.github.entrena.Entrena.desktop \
    /usr/share/icons/hicolor/scalable/apps/io.github.entrena.Entrena.svg \
    /usr/share/metainfo/io.github.entrena.Entrena.metainfo.xml \
    /usr/share/man/man1/entrena-cli.1.gz /usr/share/man/man1/entrena.1.gz \
    /usr/share/bash-completion/completions/entrena-cli \
    /usr/share/entrena/configs/default.json \
    /usr/share/doc/entrena/copyright /usr/share/doc/entrena/changelog.Debian.gz; do
    grep -qx "$f" <<<"$contents" || fail "the package lacks $f"
done

say "installing"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get install -y -q "./${deb#./}" >/dev/null
trap 'say "removing"; "${as_root[@]}" apt-get remove -y -q --purge entrena >/dev/null || true' EXIT

say "the installed programs"
[[ $(command -v entrena-cli) == /usr/bin/entrena-cli ]] || fail "entrena-cli is not /usr/bin/entrena-cli"
/usr/bin/entrena-cli --version
/usr/bin/entrena --version
/usr/bin/entrena-cli train --help | grep -q -- '--resume RUN' || fail "entrena-cli train --help lacks its options"
if grep -aq ENTRENA_TEST_NAN_AT_STEPS /usr/bin/entrena-cli /usr/bin/entrena; then
    fail "the test hook ENTRENA_TEST_NAN_AT_STEPS ships in a release build"
fi

say "a few steps of the installed default configuration"
scratch=$(mktemp -d)
HOME=$scratch XDG_DATA_HOME=$scratch/data /usr/bin/entrena-cli train --config /usr/share/entrena/configs/default.json \
    --set train.max_steps=30 --set train.log_every=10 --json >"$scratch/events.jsonl" ||
    fail "training the default configuration exited $?"
tail -n 1 "$scratch/events.jsonl" | grep -q '"status":"finished"' || fail "the run did not finish: $(tail -n 1 "$scratch/events.jsonl")"
[[ -f $scratch/data/entrena/runs.sqlite ]] || fail "the run store is not in \$XDG_DATA_HOME/entrena"
HOME=$scratch XDG_DATA_HOME=$scratch/data /usr/bin/entrena-cli runs | grep -q finished || fail "the run is not listed"

say "validators"
desktop-file-validate /usr/share/applications/io.github.entrena.Entrena.desktop
appstreamcli validate --no-net /usr/share/metainfo/io.github.entrena.Entrena.metainfo.xml

say "man pages"
# Minimal images exclude /usr/share/man from every package (dpkg path-exclude): say so plainly.
[[ -f /usr/share/man/man1/entrena-cli.1.gz ]] ||
    fail "the man page was not installed (does /etc/dpkg/dpkg.cfg.d exclude /usr/share/man?)"
MANPAGER=cat MANWIDTH=80 man entrena-cli >"$scratch/man.txt" 2>/dev/null || fail "man entrena-cli shows no page"
grep -q 'COMMANDS' "$scratch/man.txt" || fail "man entrena-cli has no COMMANDS section"
grep -q 'TORCHELASTIC_ERROR_FILE' "$scratch/man.txt" || fail "man entrena-cli has no environment table"
MANPAGER=cat man entrena >/dev/null 2>&1 || fail "man entrena shows no page"

say "bash completion, in an interactive shell as a user's ~/.bashrc sets it up"
[[ -f /usr/share/bash-completion/bash_completion ]] || fail "bash-completion is not installed (packaging/setup.sh installs it)"
cp /etc/skel/.bashrc "$scratch/.bashrc"
# bash-completion loads a command's completion on the first Tab (_completion_loader); do what Tab does.
spec=$(HOME=$scratch bash -ic '_completion_loader entrena-cli >/dev/null 2>&1; complete -p entrena-cli' 2>/dev/null) ||
    fail "complete -p entrena-cli is not set in an interactive shell"
echo "$spec"
words=$(HOME=$scratch bash -ic '_completion_loader entrena-cli >/dev/null 2>&1
    COMP_WORDS=(entrena-cli train --set data.batch); COMP_CWORD=3; _entrena_cli; echo "${COMPREPLY[*]}"' 2>/dev/null)
[[ $words == *data.batch_size=* ]] || fail "--set data.batch<Tab> offers '$words'"
rm -rf "$scratch"
say "passed"
