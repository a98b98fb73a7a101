#!/usr/bin/env bash
# The bash completion of entrena-cli (packaging/entrena-cli.bash-completion), driven as bash drives
# it on Tab: COMP_WORDS and COMP_CWORD set, the completion function called, COMPREPLY read.
#
#   tests/cli/tst_completion.sh ENTRENA_CLI COMPLETION_FILE
set -uo pipefail
cli=$1 completion=$2
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
ln -s "$cli" "$bin/entrena-cli" # completed by name, found on PATH, as when installed
export PATH="$bin:$PATH"
# shellcheck source=/dev/null
source "$completion"

passed=0 failed=0
# offers "WORDS..." WANTED [UNWANTED]: Tab after WORDS offers every word of WANTED and none of UNWANTED.
offers()
{
    local line=$1 wanted=$2 unwanted=${3:-}
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *' ' ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _entrena_cli
    local got=" ${COMPREPLY[*]} " ok=1 w
    for w in $wanted; do [[ $got == *" $w "* ]] || ok=0; done
    for w in $unwanted; do [[ $got == *" $w "* ]] && ok=0; done
    if ((ok)); then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: '$line<Tab>' offered [${COMPREPLY[*]}]; wanted [$wanted], not [$unwanted]"
    fi
}

[[ $(complete -p entrena-cli) == *"-F _entrena_cli entrena-cli"* ]] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: complete -p entrena-cli: $(complete -p entrena-cli 2>&1)"; }

offers "entrena-cli tr" "train"
offers "entrena-cli " "train lr-find batch-find runs baseline export devices cluster-script config-keys --help --version"
offers "entrena-cli help ex" "export"
offers "entrena-cli train --" "--config --set --db --json --resume --nproc --help" "--status --checkpoint"
offers "entrena-cli runs --" "--db --json --status --tag --all" "--config --nproc"
offers "entrena-cli train --set data.batch" "data.batch_size="
offers "entrena-cli train --config x.json --set scheduler.max" "scheduler.max_lr= scheduler.max_momentum="
offers "entrena-cli export --checkpoint " "best last"
offers "entrena-cli export --metrics " "csv json"
offers "entrena-cli predict --checkpoint " "best last" # from the value as declared (best|last), for any command
offers "entrena-cli runs --status f" "finished failed" "stopped"
offers "entrena-cli train --resume " "" "--config --json" # a run to type: nothing offered
offers "entrena-cli lr-find --steps " "" "--config"

echo "$passed passed, $failed failed"
((failed == 0))
