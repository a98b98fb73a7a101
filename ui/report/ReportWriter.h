#pragma once

#include "report/Report.h"

#include <QString>

namespace entrena::ui {

/// Writes a report, chosen by the extension of `path`:
/// - `.html`: one self-contained file (charts embedded as PNG data, no script, no network);
/// - `.pdf`: A4 pages with selectable text and vector charts.
/// All user text (run names, notes, tags, messages) is escaped. The file is written whole or not
/// at all. Returns an empty string, or a message that names the problem.
QString writeReport(const Report& report, const QString& path);

/// The report as HTML (what writeReport writes for `.html`).
QString reportHtml(const Report& report);

} // namespace entrena::ui
