#include "report/ReportEvaluation.h"

#include <QColor>
#include <QLocale>
#include <algorithm>

namespace entrena::ui {
namespace {

QString esc(const QString& text)
{
    return text.toHtmlEscaped();
}

/// White to a strong blue by `share`, with the text colour that reads on it.
std::pair<QString, QString> shade(double share)
{
    const QColor low(255, 255, 255), high(8, 69, 148);
    const auto mix = [&](int a, int b) { return int(a + (b - a) * std::clamp(share, 0.0, 1.0)); };
    const QColor c(mix(low.red(), high.red()), mix(low.green(), high.green()), mix(low.blue(), high.blue()));
    return {c.name(), share > 0.45 ? QStringLiteral("#ffffff") : QStringLiteral("#222222")};
}

QString matrixHtml(const EvaluationReport& e)
{
    const QLocale locale;
    const int k = int(e.classes.size());
    // Twenty columns of counts fit an A4 page only in a smaller type.
    const QString size = k > 10 ? QStringLiteral("7pt") : QStringLiteral("9pt");
    const auto cell = [&](const QString& tag, const QString& attributes, const QString& text) {
        return QStringLiteral("<%1%2><span style=\"font-size:%3\">%4</span></%1>").arg(tag, attributes, size, text);
    };
    QString html = QStringLiteral("<table class=\"confusion\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\"><thead><tr>");
    html += cell(QStringLiteral("th"), QString(), esc(Report::tr("true ↓, predicted →")));
    for (int p = 0; p < k; ++p)
        html += cell(QStringLiteral("th"),
                     QStringLiteral(" title=\"%1\"").arg(esc(QString::fromStdString(e.classes[std::size_t(p)]))),
                     QString::number(p + 1));
    html += QStringLiteral("</tr></thead><tbody>");
    for (int t = 0; t < k; ++t) {
        const auto& row = e.confusion[std::size_t(t)];
        int64_t total = 0;
        for (int64_t c : row)
            total += c;
        html += QStringLiteral("<tr>") +
                cell(QStringLiteral("th"), QStringLiteral(" align=\"left\""),
                     QStringLiteral("%1 %2").arg(t + 1).arg(esc(QString::fromStdString(e.classes[std::size_t(t)]))));
        for (int p = 0; p < k; ++p) {
            const int64_t count = row[std::size_t(p)];
            const auto [background, text] = shade(total > 0 ? double(count) / double(total) : 0.0);
            html += cell(QStringLiteral("td"), QStringLiteral(" align=\"right\" bgcolor=\"%1\"").arg(background),
                         QStringLiteral("<font color=\"%1\">%2</font>").arg(text, locale.toString(qlonglong(count))));
        }
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</tbody></table>");
}

QString perClassHtml(const EvaluationReport& e)
{
    const QLocale locale;
    QString html = QStringLiteral("<table class=\"per-class\" border=\"1\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr>");
    for (const QString& h : {Report::tr("Class"), Report::tr("Precision (%)"), Report::tr("Recall (%)"), Report::tr("Support")})
        html += QStringLiteral("<th align=\"left\">%1</th>").arg(esc(h));
    html += QStringLiteral("</tr></thead><tbody>");
    for (const ClassScore& s : e.perClass)
        html += QStringLiteral(
                    "<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td><td align=\"right\">%4</td></tr>")
                    .arg(esc(QString::fromStdString(s.name)), locale.toString(s.precision * 100.0, 'f', 1),
                         locale.toString(s.recall * 100.0, 'f', 1), locale.toString(qlonglong(s.support)));
    return html + QStringLiteral("</tbody></table>");
}

} // namespace

QString evaluationSectionHtml(const Report& report)
{
    const bool any =
        std::any_of(report.runs.begin(), report.runs.end(), [](const ReportRun& r) { return !r.evaluation.empty(); });
    if (!any)
        return QString();
    const QLocale locale;
    QString html = QStringLiteral("<h2>%1</h2><p>%2</p>")
                       .arg(esc(Report::tr("Evaluation")),
                            esc(Report::tr("Confusion matrices: a row for each true class, a column for each predicted "
                                           "class (numbered as the rows); the shade is the cell's share of its row.")));
    for (const ReportRun& r : report.runs) {
        const EvaluationReport& e = r.evaluation;
        html += QStringLiteral("<h3>%1</h3>").arg(esc(Report::runLabel(r.record)));
        if (e.empty()) {
            html += QStringLiteral("<p>%1</p>").arg(esc(Report::tr("(no evaluation: the run did not finish)")));
            continue;
        }
        int64_t total = 0;
        for (const auto& row : e.confusion)
            for (int64_t c : row)
                total += c;
        html += QStringLiteral("<p>%1</p>")
                    .arg(esc(Report::tr("On the %1 split, %2 samples.")
                                 .arg(e.split == "test" ? Report::tr("test") : Report::tr("validation"),
                                      locale.toString(qlonglong(total)))));
        html += matrixHtml(e) + QStringLiteral("<p></p>") + perClassHtml(e);
    }
    return html;
}

} // namespace entrena::ui
