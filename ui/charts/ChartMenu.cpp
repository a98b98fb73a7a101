#include "charts/ChartMenu.h"

#include "entrena/data/Csv.h"
#include "settings/Settings.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSaveFile>
#include <QSvgGenerator>
#include <qcustomplot.h>

#include <unistd.h>

#include <cstdio>

namespace entrena::ui {
namespace {

QString chartTitle(const QCustomPlot* plot)
{
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
        if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i)))
            return t->text();
    return plot->objectName();
}

/// One field as Entrena's CSV codec writes it (and its readers read it back).
QString csvField(const QString& text)
{
    return QString::fromStdString(csv::field(text.toStdString()));
}

/// QCustomPlot's own savers write straight to the path; go through a temporary file in the
/// same folder and rename, so a failure never leaves half a file behind.
template <typename Write>
QString saveAtomically(const QString& path, Write write)
{
    const QFileInfo info(path);
    if (!QFileInfo(info.absolutePath()).isDir())
        return ChartMenu::tr("Cannot write %1: the folder does not exist.").arg(path);
    const QString temp = info.absolutePath() + QStringLiteral("/.%1.part").arg(info.fileName());
    if (!write(temp)) {
        QFile::remove(temp);
        return ChartMenu::tr("Cannot write %1: check that the folder is writable and the disk has space.").arg(path);
    }
    // Flushed to the disk before the rename, and renamed over the old file in one step (POSIX
    // rename replaces atomically): a crash leaves the old chart or the new one, never neither.
    QFile written(temp);
    const bool synced = written.open(QIODevice::ReadOnly) && ::fsync(written.handle()) == 0;
    written.close();
    if (!synced || std::rename(QFile::encodeName(temp).constData(), QFile::encodeName(path).constData()) != 0) {
        QFile::remove(temp);
        return ChartMenu::tr("Cannot write %1: the file could not be replaced.").arg(path);
    }
    return QString();
}

} // namespace

ChartMenu::ChartMenu(QCustomPlot* plot)
    : QObject(plot)
    , plot_(plot)
{
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot, &QWidget::customContextMenuRequested, this, &ChartMenu::show);
}

ChartMenu* ChartMenu::install(QCustomPlot* plot)
{
    return new ChartMenu(plot);
}

void ChartMenu::show(const QPoint& pos)
{
    QMenu menu(plot_);
    menu.addAction(tr("Export as PNG…"), this, [this] { exportAs(QStringLiteral("png")); });
    menu.addAction(tr("Export as SVG…"), this, [this] { exportAs(QStringLiteral("svg")); });
    menu.addAction(tr("Export as PDF…"), this, [this] { exportAs(QStringLiteral("pdf")); });
    menu.addSeparator();
    menu.addAction(tr("Copy data as CSV"), this, [this] {
        auto* mime = new QMimeData;
        const QString text = csv(plot_);
        mime->setText(text);
        mime->setData(QStringLiteral("text/csv"), text.toUtf8());
        QApplication::clipboard()->setMimeData(mime);
    });
    menu.exec(plot_->mapToGlobal(pos));
}

void ChartMenu::exportAs(const QString& suffix)
{
    QString name = chartTitle(plot_).toLower();
    name.replace(QRegularExpression(QStringLiteral("[^\\w]+")), QStringLiteral("-"));
    const QString folder = Settings::lastExportFolder.value();
    const QString start = QDir(folder.isEmpty() ? QDir::homePath() : folder).filePath(name + QLatin1Char('.') + suffix);
    const QString filter = tr("%1 files (*.%2)").arg(suffix.toUpper(), suffix);
    QString path = QFileDialog::getSaveFileName(plot_->window(), tr("Export chart"), start, filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    Settings::lastExportFolder.set(QFileInfo(path).absolutePath());
    const QString error = save(plot_, path);
    if (!error.isEmpty())
        QMessageBox::warning(plot_->window(), tr("Export chart"), error);
}

QString ChartMenu::save(QCustomPlot* plot, const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const int w = plot->width(), h = plot->height();
    if (suffix == QLatin1String("png"))
        return saveAtomically(path, [&](const QString& temp) { return plot->savePng(temp, w, h, 2.0); });
    if (suffix == QLatin1String("pdf"))
        return saveAtomically(path, [&](const QString& temp) { return plot->savePdf(temp, w, h, QCP::epNoCosmetic); });
    if (suffix == QLatin1String("svg"))
        return saveAtomically(path, [&](const QString& temp) {
            QSvgGenerator svg;
            svg.setFileName(temp);
            svg.setSize(QSize(w, h));
            svg.setViewBox(QRect(0, 0, w, h));
            svg.setTitle(chartTitle(plot));
            svg.setDescription(tr("Exported from Entrena"));
            QCPPainter painter;
            if (!painter.begin(&svg))
                return false;
            plot->toPainter(&painter, w, h);
            return painter.end();
        });
    return tr("Cannot tell the image format from “%1”: name the file .png, .svg or .pdf.").arg(path);
}

QString ChartMenu::csv(const QCustomPlot* plot)
{
    QString out = QStringLiteral("series,%1,value\n")
                      .arg(csvField(plot->xAxis->label().isEmpty() ? QStringLiteral("x") : plot->xAxis->label()));
    for (int i = 0; i < plot->graphCount(); ++i) {
        const QCPGraph* g = plot->graph(i);
        if (!g->visible() || g->data()->isEmpty())
            continue;
        const QString series = csvField(g->name());
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
            out += series + QLatin1Char(',') + QString::number(it->key, 'g', 17) + QLatin1Char(',') +
                   QString::number(it->value, 'g', 17) + QLatin1Char('\n');
    }
    return out;
}

} // namespace entrena::ui
