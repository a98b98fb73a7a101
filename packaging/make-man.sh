#!/usr/bin/env bash
# Writes the man pages of entrena-cli and entrena from their --help, with help2man:
#
#   packaging/make-man.sh ENTRENA_CLI ENTRENA|- OUT_DIR CLI_DOC
#
# writes OUT_DIR/entrena-cli.1.gz (and entrena.1.gz, unless ENTRENA is -). entrena-cli's page gains a
# section per command (its `COMMAND --help`) and the environment table of CLI_DOC (docs/cli.md), so
# the page says what the program and its documentation say.
set -euo pipefail
cli=$1 gui=$2 out=$3 doc=$4
mkdir -p "$out"
include=$(mktemp)
trap 'rm -f "$include"' EXIT
export ENTRENA_NO_TUNE=1 # no re-execution, no environment changes: the help is the same everywhere

# roff: a backslash is \e; a line may not start with a dot or an apostrophe.
roff() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }

{
    echo '[COMMANDS]'
    # The help is read whole first: an awk that stops early could end the program with SIGPIPE.
    overview=$("$cli" --help)
    awk '/^Commands:/ { listing = 1; next } listing && /^  [a-z]/ { print $1 } listing && /^$/ { listing = 0 }' <<<"$overview" |
        while read -r command; do
            echo ".SS $command"
            echo '.nf'
            "$cli" "$command" --help | roff
            echo '.fi'
        done
    echo '[ENVIRONMENT]'
    # The rows of the table under "## Environment variables": | `NAME`, `NAME` | what it does |
    awk '/^## Environment variables/ { table = 1; next } table && /^## / { exit }
         table && /^\| `/ { print }' "$doc" |
        while IFS='|' read -r _ names what _; do
            names=$(sed -e 's/`//g' -e 's/^ *//' -e 's/ *$//' <<<"$names")
            what=$(sed -e 's/`//g' -e 's/^ *//' -e 's/ *$//' <<<"$what")
            echo '.TP'
            echo ".B $names" | roff
            echo "$what" | roff
        done
    echo '[FILES]'
    echo '.TP'
    echo '.I ~/.local/share/entrena/runs.sqlite'
    echo 'The default run store, shared with the GUI (see XDG_DATA_HOME).'
    echo '.TP'
    echo '.I /usr/share/entrena/configs/default.json'
    echo 'The default configuration: an MLP on Fashion-MNIST (package dataset-fashion-mnist).'
    echo '[SEE ALSO]'
    echo '.BR entrena (1),'
    echo '.BR torchrun (1).'
    echo 'Every configuration key: /usr/share/doc/entrena/configuration.md, or entrena-cli config-keys.'
} >"$include"

help2man --no-info --section=1 --include="$include" \
    --name="train neural networks and manage their runs from the command line" \
    --output="$out/entrena-cli.1" "$cli"
gzip -9nf "$out/entrena-cli.1"

if [[ $gui != - ]]; then
    # The GUI answers --help and --version on stdout without a display (Qt's warnings go to stderr).
    {
        echo '[DESCRIPTION]'
        echo 'Entrena is a desktop workbench for training neural networks. The window holds the run'
        echo 'configuration, live charts of the run training now, and every run of the run store, to'
        echo 'compare, report on and export. It trains in a worker thread with the same engine as'
        echo '.BR entrena-cli (1),'
        echo 'and shares its run store.'
        echo '[FILES]'
        echo '.TP'
        echo '.I ~/.local/share/entrena/runs.sqlite'
        echo 'The default run store (see XDG_DATA_HOME), shared with entrena-cli.'
        echo '[SEE ALSO]'
        echo '.BR entrena-cli (1)'
    } >"$include"
    help2man --no-info --section=1 \
        --name="desktop workbench for training neural networks faster" \
        --version-string="$("$gui" --version 2>/dev/null | awk '{ print $NF; exit }')" \
        --include="$include" --output="$out/entrena.1" "$gui"
    gzip -9nf "$out/entrena.1"
fi
