#!/usr/bin/env bash
# Collects every user-visible string into translations/entrena_es.ts and fills the Spanish from
# fill_es.py's glossary. The GUI's strings go through tr() in ui/ and app/bridge/; the registries'
# labels (engine/src/*/…Registry.cpp, marked ENTRENA_LABEL) are translated in the context "Registry".
set -euo pipefail
cd "$(dirname "$0")/../.."
/usr/lib/qt6/bin/lupdate -no-obsolete -locations none -tr-function-alias QT_TRANSLATE_NOOP+=ENTRENA_LABEL \
    ui app/bridge engine/src -ts translations/entrena_es.ts
/usr/bin/python3 translations/tools/fill_es.py
