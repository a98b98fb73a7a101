#pragma once

#include <QString>

namespace entrena::ui {

/// `entrena --export-report --db FILE --runs ID[,ID...] --out FILE.pdf|FILE.html`, headless.
/// Prints what it wrote or what went wrong; returns the exit status: 0 written, 1 the store
/// could not be read or the file could not be written, 2 a bad command line (no such run,
/// an ID that is not a number, an output that is neither .pdf nor .html).
int exportReportCommand(const QString& dbPath, const QString& runs, const QString& out);

} // namespace entrena::ui
