#include "report/ReportWriter.h"

#include "RunTableModel.h"
#include "entrena/system/Version.h"
#include "report/ReportCharts.h"
#include "report/ReportEvaluation.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QFileInfo>
#include <QLocale>
#include <QPainter>
#include <QPdfWriter>
#include <QPicture>
#include <QSaveFile>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextObjectInterface>
#include <memory>
#include <qcustomplot.h>
#include <utility>

namespace entrena::ui {
namespace {

// Charts are laid out at this size (logical pixels) and scaled to the page or the browser.
constexpr int kChartWidth = 900;
constexpr int kChartHeight = 330;
constexpr int kChartObjectType = QTextFormat::UserObject + 1;
constexpr int kChartIndexProperty = QTextFormat::UserProperty + 1;

QString esc(const QString& text)
{
    return text.toHtmlEscaped();
}
QString esc(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

/// A piece of the report: HTML, or the chart at `chart` in Report::charts().
struct Block {
    QString html;
    int chart = -1;
    bool newPage = false; ///< the PDF starts a page here
};

QString tableStart(const QStringList& headers)
{
    QString html = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\"><thead><tr>");
    for (const QString& h : headers)
        html += QStringLiteral("<th align=\"left\">") + esc(h) + QStringLiteral("</th>");
    return html + QStringLiteral("</tr></thead><tbody>");
}

QString tableRow(const QStringList& escapedCells)
{
    QString html = QStringLiteral("<tr>");
    for (const QString& c : escapedCells)
        html += QStringLiteral("<td>") + c + QStringLiteral("</td>");
    return html + QStringLiteral("</tr>");
}

const QString kTableEnd = QStringLiteral("</tbody></table>");

QStringList runHeaders(const Report& report, const QString& first)
{
    QStringList headers{first};
    for (const ReportRun& r : report.runs)
        headers << Report::runLabel(r.record);
    return headers;
}

QString runsSection(const Report& report)
{
    const QLocale locale;
    QString runs = QStringLiteral("<h2>%1</h2>").arg(esc(Report::tr("Runs")));
    runs += tableStart(
        {Report::tr("Run"), Report::tr("Status"), Report::tr("Created"), Report::tr("Duration (s)"), Report::tr("Tags")});
    for (const ReportRun& r : report.runs)
        runs += tableRow({esc(Report::runLabel(r.record)), esc(app::RunTableModel::statusText(r.record.status)),
                          esc(r.record.created), r.record.seconds ? locale.toString(*r.record.seconds, 'f', 1) : QString(),
                          esc(r.tags.join(QStringLiteral(", ")))});
    return runs + kTableEnd;
}

QString environmentSection(const Report& report)
{
    QString env = QStringLiteral("<h2>%1</h2>").arg(esc(Report::tr("Environment")));
    env += tableStart({Report::tr("Item"), Report::tr("Value")});
    for (const auto& [label, value] : report.environment)
        env += tableRow({esc(label), esc(value)});
    return env + kTableEnd;
}

/// The settings; of several runs, only those that differ.
QString configurationSection(const Report& report)
{
    QString config = QStringLiteral("<h2>%1</h2>").arg(esc(Report::tr("Configuration")));
    if (report.runs.size() > 1)
        config += QStringLiteral("<p>%1</p>")
                      .arg(esc(Report::tr("Only the settings that differ between the runs are shown; %n more "
                                          "are the same in all of them.",
                                          nullptr, report.sameSettings)));
    config += report.runs.size() > 1 ? tableStart(runHeaders(report, Report::tr("Setting")))
                                     : tableStart({Report::tr("Setting"), Report::tr("Value")});
    for (const auto& [key, values] : report.configuration) {
        QStringList cells{esc(key)};
        for (const QString& v : values)
            cells << esc(v);
        config += tableRow(cells);
    }
    if (report.configuration.isEmpty())
        config += tableRow({esc(Report::tr("(no differences)"))});
    return config + kTableEnd;
}

/// The figures of each run, the best of each row in bold.
QString summarySection(const Report& report)
{
    QString summary = QStringLiteral("<h2>%1</h2><p>%2</p>")
                          .arg(esc(Report::tr("Summary")),
                               esc(report.runs.size() > 1 ? Report::tr("The best value in each row is in bold.") : QString()));
    summary += tableStart(runHeaders(report, Report::tr("Figure")));
    for (const SummaryRow& row : report.summary) {
        QStringList cells{esc(row.label)};
        for (std::size_t r = 0; r < report.runs.size(); ++r) {
            const QString v = esc(row.format(r));
            // Ties (as shown) are all best.
            const bool best = row.best >= 0 && row.format(r) == row.format(std::size_t(row.best));
            cells << (best ? QStringLiteral("<b class=\"best\">%1</b>").arg(v) : v);
        }
        summary += tableRow(cells);
    }
    return summary + kTableEnd;
}

QString eventsSection(const Report& report)
{
    QString events = QStringLiteral("<h2>%1</h2>").arg(esc(Report::tr("Events")));
    events += tableStart({Report::tr("Run"), Report::tr("Step"), Report::tr("Time"), Report::tr("Kind"), Report::tr("Message")});
    int eventCount = 0;
    for (const ReportRun& r : report.runs)
        for (const EventRecord& e : r.events) {
            events +=
                tableRow({esc(Report::runLabel(r.record)), QString::number(e.step), esc(e.time), esc(e.kind), esc(e.message)});
            ++eventCount;
        }
    if (eventCount == 0)
        events += tableRow({esc(Report::tr("(none)"))});
    return events + kTableEnd;
}

/// Each run's notes and error, where it has any.
QString notesSection(const Report& report)
{
    QString notes = QStringLiteral("<h2>%1</h2>").arg(esc(Report::tr("Notes")));
    bool anyNotes = false;
    for (const ReportRun& r : report.runs) {
        if (r.record.notes.empty() && r.record.error.empty())
            continue;
        anyNotes = true;
        notes += QStringLiteral("<h3>%1</h3>").arg(esc(Report::runLabel(r.record)));
        if (!r.record.error.empty())
            notes += QStringLiteral("<p><b>%1</b> %2</p>").arg(esc(Report::tr("Error:")), esc(r.record.error));
        // One paragraph per line: QTextDocument ignores white-space: pre-wrap.
        for (const QString& line : QString::fromStdString(r.record.notes).split(QLatin1Char('\n')))
            notes += QStringLiteral("<p>%1</p>").arg(esc(line));
    }
    if (!anyNotes)
        notes += QStringLiteral("<p>%1</p>").arg(esc(Report::tr("(none)")));
    return notes;
}

std::vector<Block> blocks(const Report& report)
{
    const QLocale locale;
    std::vector<Block> out;
    auto add = [&](const QString& html) { out.push_back({html, -1}); };

    add(QStringLiteral("<h1>%1</h1><p>%2</p>")
            .arg(esc(report.title),
                 esc(Report::tr("Generated %1 by Entrena %2")
                         .arg(locale.toString(report.generated, QLocale::LongFormat), QString::fromLatin1(kVersion)))));
    // Results first: what the run achieved (figures, confusion matrix, per-class scores), then the
    // curves; how it was set up (runs, configuration, environment) and what happened follow.
    add(summarySection(report));
    const QString evaluation = evaluationSectionHtml(report);
    if (!evaluation.isEmpty())
        add(evaluation);
    // After an evaluation the page is full: the curves start the next one rather than leave their
    // heading alone at the foot of this one.
    out.push_back({QStringLiteral("<h2>%1</h2>").arg(esc(Report::tr("Charts"))), -1, !evaluation.isEmpty()});
    const auto specs = Report::charts();
    for (std::size_t i = 0; i < specs.size(); ++i)
        out.push_back({QString(), int(i)});
    add(runsSection(report));
    add(configurationSection(report));
    add(environmentSection(report));
    add(eventsSection(report));
    add(notesSection(report));
    return out;
}

QByteArray chartPng(const Report& report, const ChartSpec& spec)
{
    std::unique_ptr<QCustomPlot> plot(buildReportChart(report, spec, kChartWidth, kChartHeight));
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    plot->toPixmap(kChartWidth, kChartHeight, 2.0).save(&buffer, "PNG");
    return png;
}

/// Draws a chart inside a QTextDocument laid out for the PDF: recorded as vector drawing
/// commands (QPicture) and replayed scaled into the object's rectangle.
class ChartObject : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)
public:
    ChartObject(const Report& report, double pageWidth)
        : pageWidth_(pageWidth)
    {
        for (const ChartSpec& spec : Report::charts()) {
            std::unique_ptr<QCustomPlot> plot(buildReportChart(report, spec, kChartWidth, kChartHeight));
            QPicture picture;
            QCPPainter painter(&picture);
            plot->toPainter(&painter, kChartWidth, kChartHeight);
            painter.end();
            pictures_.push_back(picture);
        }
    }

    QSizeF intrinsicSize(QTextDocument*, int, const QTextFormat&) override
    {
        return {pageWidth_, pageWidth_ * kChartHeight / kChartWidth};
    }

    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat& format) override
    {
        const int index = format.intProperty(kChartIndexProperty);
        if (index < 0 || index >= int(pictures_.size()))
            return;
        painter->save();
        painter->translate(rect.topLeft());
        painter->scale(rect.width() / kChartWidth, rect.height() / kChartHeight);
        // QPicture::play() scales by the ratio of the target's DPI to the picture's; the
        // rectangle already gives the size, so undo that.
        QPicture& picture = pictures_[std::size_t(index)];
        if (QPaintDevice* device = painter->device())
            painter->scale(double(picture.logicalDpiX()) / device->logicalDpiX(),
                           double(picture.logicalDpiY()) / device->logicalDpiY());
        picture.play(painter);
        painter->restore();
    }

private:
    double pageWidth_;
    std::vector<QPicture> pictures_;
};

QString writeHtml(const Report& report, const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Report::tr("Cannot write %1: %2").arg(path, file.errorString());
    file.write(reportHtml(report).toUtf8());
    if (!file.commit())
        return Report::tr("Cannot write %1: %2").arg(path, file.errorString());
    return QString();
}

/// The report's blocks into `doc`: text and tables as HTML, each chart as an object ChartObject draws.
void fillDocument(QTextDocument& doc, const Report& report)
{
    QTextCursor cursor(&doc);
    bool first = true;
    // A new block takes the format of the one before; after a page break that would break again.
    bool afterBreak = false;
    const auto newBlock = [&] {
        if (std::exchange(afterBreak, false)) {
            QTextBlockFormat format = cursor.blockFormat();
            format.setPageBreakPolicy(QTextFormat::PageBreak_Auto);
            cursor.insertBlock(format);
        } else {
            cursor.insertBlock();
        }
    };
    for (const Block& b : blocks(report)) {
        if (b.chart < 0) {
            if (!std::exchange(first, false))
                newBlock(); // insertHtml would continue the previous paragraph
            cursor.insertHtml(b.html);
            if (b.html.endsWith(kTableEnd))
                newBlock(); // a line of air: the next heading sat on the table's last row
            if (b.newPage) {
                QTextBlockFormat format = cursor.blockFormat();
                format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                cursor.setBlockFormat(format);
                afterBreak = true;
            }
            continue;
        }
        newBlock();
        QTextCharFormat chart;
        chart.setObjectType(kChartObjectType);
        chart.setProperty(kChartIndexProperty, b.chart);
        cursor.insertText(QString(QChar::ObjectReplacementCharacter), chart);
    }
}

/// `doc` painted page by page onto the PDF; false when the PDF cannot be started.
bool paintPages(QPdfWriter& writer, QTextDocument& doc, const QRectF& page)
{
    QPainter painter;
    if (!painter.begin(&writer))
        return false;
    const int pages = doc.pageCount();
    for (int p = 0; p < pages; ++p) {
        if (p > 0)
            writer.newPage();
        painter.save();
        painter.translate(0, -p * page.height());
        doc.drawContents(&painter, QRectF(0, p * page.height(), page.width(), page.height()));
        painter.restore();
    }
    painter.end();
    return true;
}

QString writePdf(const Report& report, const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Report::tr("Cannot write %1: %2").arg(path, file.errorString());
    {
        QPdfWriter writer(&file);
        writer.setTitle(report.title);
        writer.setCreator(QStringLiteral("Entrena %1").arg(QString::fromLatin1(kVersion)));
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        writer.setResolution(300);

        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(&writer);
        const QRectF page = writer.pageLayout().paintRectPixels(writer.resolution());
        doc.setPageSize(page.size());
        QFont font = doc.defaultFont();
        font.setPointSizeF(9);
        doc.setDefaultFont(font);
        doc.setDefaultStyleSheet(
            QStringLiteral("th { background-color: #eeeeee; } h1 { font-size: 16pt; } h2 { font-size: 12pt; }"));
        ChartObject charts(report, page.width() * 0.98);
        doc.documentLayout()->registerHandler(kChartObjectType, &charts);

        fillDocument(doc, report);
        if (!paintPages(writer, doc, page))
            return Report::tr("Cannot write %1: the PDF could not be started.").arg(path);
    }
    if (!file.commit())
        return Report::tr("Cannot write %1: %2").arg(path, file.errorString());
    return QString();
}

} // namespace

QString reportHtml(const Report& report)
{
    const QString lang = QLocale().name().section(QLatin1Char('_'), 0, 0);
    QString html = QStringLiteral("<!DOCTYPE html>\n<html lang=\"%1\"><head><meta charset=\"utf-8\">"
                                  "<meta name=\"generator\" content=\"Entrena %2\"><title>%3</title><style>"
                                  "body{font-family:sans-serif;max-width:980px;margin:2em auto;padding:0 1em;color:#222}"
                                  "table{border-collapse:collapse;margin:.5em 0 1.5em}th{background:#eee}"
                                  "td,th{border:1px solid #bbb;padding:4px 8px;vertical-align:top}"
                                  "b.best{background:#e4f3e4}figure{margin:1em 0}img{max-width:100%;height:auto}"
                                  "</style></head><body>\n")
                       .arg(lang.isEmpty() ? QStringLiteral("en") : lang, QString::fromLatin1(kVersion), esc(report.title));
    const auto specs = Report::charts();
    for (const Block& b : blocks(report)) {
        if (b.chart < 0) {
            html += b.html + QLatin1Char('\n');
            continue;
        }
        const ChartSpec& spec = specs[std::size_t(b.chart)];
        html += QStringLiteral("<figure><img alt=\"%1\" width=\"%2\" height=\"%3\" "
                               "src=\"data:image/png;base64,%4\"></figure>\n")
                    .arg(esc(spec.title))
                    .arg(kChartWidth)
                    .arg(kChartHeight)
                    .arg(QString::fromLatin1(chartPng(report, spec).toBase64()));
    }
    return html + QStringLiteral("</body></html>\n");
}

QString writeReport(const Report& report, const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return writeHtml(report, path);
    if (suffix == QLatin1String("pdf"))
        return writePdf(report, path);
    return Report::tr("Cannot tell the report's format from “%1”: name the file .pdf or .html.").arg(path);
}

} // namespace entrena::ui

#include "ReportWriter.moc"
