#!/usr/bin/env bash
# A choice (a data set, model, optimizer, schedule, precision or sweep method) is spelled as a string
# only in its registry and at the file format's edge (Choices.h): everything else compares enums or
# reads the entry. This fails, naming the lines, when a choice's name appears as a string literal
# anywhere else in the engine, the bridge or the GUI (docs/architecture.md, "The registries").
#
#   tests/tools/check_choice_strings.sh SOURCE_DIR
set -u
root=${1:?the source folder}
cd "$root" || exit 2
# Names that are only ever choices. (Left out, because the same word is also something else: csv, an
# export format; step and constant, JSON fields; cosine and auto, words; torchscript, an export format.)
names=(grid random tpe asha pbt sgd adam adamw rmsprop mlp cnn resnet fashion-mnist mnist image-folder cifar10 synthetic
       multistep exponential one_cycle reduce_on_plateau fp32 bf16 fp16)
pattern=$(printf '"%s"|' "${names[@]}")
pattern=${pattern%|}
# Outside the registries, not in a comment, and not a declared default (a line marked registry-default).
found=$(grep -rnE "$pattern" engine/src engine/include app ui --include='*.cpp' --include='*.h' |
        grep -vE '^(engine/src/[a-z]+/[A-Za-z]*Registry\.cpp|engine/include/entrena/config/Choices\.h):' |
        grep -v 'registry-default' |
        awk -v pattern="$pattern" '{ line = $0; sub(/^[^:]*:[0-9]+:/, "", line); sub(/\/\/.*/, "", line); if (line ~ pattern) print }')
if [[ -n $found ]]; then
    echo "A choice spelled as a string outside its registry (compare the enum, or read the registry entry):"
    echo "$found"
    exit 1
fi
echo "no choice spelled as a string outside the registries (${#names[@]} names checked)"
