#include "dialogs/DevicesDialog.h"

#include "entrena/system/Version.h"
#include "widgets/ScreenFit.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLocale>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace entrena::ui {
namespace {

QString html(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

} // namespace

DevicesDialog::DevicesDialog(const DeviceReport& r, QWidget* parent) : QDialog(parent), text_(new QLabel(this))
{
    setWindowTitle(tr("About Entrena and devices"));
    const QLocale locale;
    QString body = QStringLiteral("<h3>Entrena %1</h3><p>%2</p><table>").arg(QString::fromLatin1(kVersion), tr("A workbench for training neural networks faster."));
    auto row = [&](const QString& key, const QString& value) {
        body += QStringLiteral("<tr><td><b>%1</b>&nbsp;</td><td>%2</td></tr>").arg(key, value);
    };
    row(tr("CPU"), tr("%1 (%2 logical CPUs, %3 physical cores, %4)")
                       .arg(html(r.cpuModel))
                       .arg(r.logicalCpus)
                       .arg(r.physicalCores)
                       .arg(html(r.cpuIsa)));
    row(tr("LibTorch"), r.torchThreads == 1 ? tr("%1, one thread").arg(html(r.torchVersion))
                                            : tr("%1, %2 threads").arg(html(r.torchVersion)).arg(r.torchThreads));
    row(tr("BLAS"), r.blasLibrary.empty() ? tr("none found") : html(r.blasLibrary) + (r.blasCore.empty() ? QString() : QStringLiteral(" (") + html(r.blasCore) + QStringLiteral(")")));
    // The variables Entrena set, without the engine's English reasons for them (docs/cli.md has those).
    QString tuning = QString::fromStdString(r.tuning);
    if (tuning.isEmpty())
        tuning = QStringLiteral("—");
    else if (tuning.startsWith(QStringLiteral("environment left as it is")))
        tuning = tr("left as it is");
    else
        tuning.remove(QRegularExpression(QStringLiteral(" \\([^)]*\\)")));
    row(tr("Environment"), tuning.toHtmlEscaped());
    if (r.gemmGflops > 0)
        row(tr("Matrix multiply"), tr("%1 GFLOP/s (fp32, measured)").arg(locale.toString(r.gemmGflops, 'f', 1)));
    // The library's own error is for a bug report, not for the dialog: in a tooltip.
    row(tr("NVML"), r.nvml == "loaded" ? tr("loaded: device memory and utilisation as the driver sees them")
                                       : tr("not available (no NVIDIA driver library): GPU memory is read from LibTorch alone"));
    if (r.nvml != "loaded")
        text_->setToolTip(QString::fromStdString(r.nvml));
    for (const auto& d : r.devices) {
        if (d.type == "cuda")
            row(QStringLiteral("cuda:%1").arg(d.index),
                tr("%1, %2 GiB, compute capability %3")
                    .arg(html(d.name))
                    .arg(locale.toString(double(d.memoryBytes) / (1024.0 * 1024 * 1024), 'f', 1))
                    .arg(html(d.capability)));
    }
    body += QStringLiteral("</table>");
    for (const auto& w : r.warnings)
        body += QStringLiteral("<p style='color:#b00'>%1 %2</p>").arg(tr("Warning:"), html(w));
    text_->setText(body);
    text_->setTextFormat(Qt::RichText);
    text_->setWordWrap(true);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(text_);
    layout->addWidget(buttons);
    // As tall as its text at this width: a fixed 360 pixels left an empty band above Close.
    text_->setMinimumWidth(520);
    sizeToScreen(this, QSize(560, sizeHint().height()));
}

} // namespace entrena::ui
