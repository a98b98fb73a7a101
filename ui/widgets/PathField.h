#pragma once
// A line edit that holds a file or folder path. QLineEdit shows the end of a text wider than itself
// (setText() leaves the cursor there), so a long path lost its start, where a person tells paths apart
// ("usr/share/datasets/…" under a narrow form).

class QLineEdit;
class QString;

namespace entrena::ui {

/// Makes `edit` a path field: shown from its start whenever the person is not editing it (after focus
/// leaves it, and after setPath()), with the whole path as its tooltip.
void makePathField(QLineEdit* edit);

/// Sets a path field's text for the person (a default, a browsed folder, a loaded configuration),
/// shown from its start unless they are editing it.
void setPath(QLineEdit* edit, const QString& path);

} // namespace entrena::ui
