#pragma once
// A form field made from a registry key (entrena/config/Registry.h): the widget its type asks for
// (a spin box with the key's range and steps, a combo box of its choices, a check box, a line of
// numbers), its label in the reader's language, and moving the value between widget and spec.
// The form builds a schedule's page from its entry this way, so a new schedule needs no form code.

#include "entrena/config/OptionKey.h"

#include <QString>
#include <functional>
#include <string>
#include <vector>

class QObject;
class QWidget;

namespace entrena::ui {

/// "256, 128" for {256, 128}, and back; what is not a whole number is dropped (the configuration's
/// check then names the key).
QString numberListText(const std::vector<int64_t>& values);
std::vector<int64_t> numberListValues(const QString& text);
/// A Json key's text as typed: JSON when it reads as JSON, else the words as a string (as --set).
JsonText jsonTextOf(const QString& typed);

/// The widget for a key of type `kind` with range [lo, hi] and the form's hints.
QWidget* makeKeyWidget(ValueKind kind, double lo, double hi, const std::vector<std::string>& choices, const FormHint& hint);
/// Shows `value` in a widget made by makeKeyWidget.
void showKeyValue(QWidget* widget, const OptionValue& value);
/// The value a widget made by makeKeyWidget holds.
OptionValue keyValue(const QWidget* widget, ValueKind kind);
/// Calls `changed` whenever the widget's value changes.
void onKeyValueChanged(QWidget* widget, QObject* context, const std::function<void()>& changed);
/// A registry label in the reader's language (context "Registry").
QString registryText(const char* english);
/// Sets the texts a widget shows besides its value (a choice's words, what 0 means) again, after
/// the language changed.
void retranslateKeyWidget(QWidget* widget, const FormHint& hint);

/// One key of a `Spec` in the form.
template <class Spec>
struct KeyField {
    const OptionKey<Spec>* key = nullptr;
    QWidget* widget = nullptr;

    static KeyField make(const OptionKey<Spec>& k) { return {&k, makeKeyWidget(k.kind, k.lo, k.hi, k.choices, k.form)}; }
    void load(const Spec& spec) const { showKeyValue(widget, key->get(spec)); }
    void store(Spec& spec) const { key->set(spec, keyValue(widget, key->kind)); }
};

} // namespace entrena::ui
