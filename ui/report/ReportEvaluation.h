#pragma once
// The report's evaluation section: each run's confusion matrix as a shaded table (the count in
// every cell, the shade its share of the row) and its per-class precision, recall and support.
// Tables, not pictures: the PDF keeps them as text and vector shapes, the HTML as markup.

#include "report/Report.h"

#include <QString>

namespace entrena::ui {

/// The section as HTML that both a browser and QTextDocument (the PDF) lay out; "" when no run
/// of the report has an evaluation. User text is escaped.
QString evaluationSectionHtml(const Report& report);

} // namespace entrena::ui
