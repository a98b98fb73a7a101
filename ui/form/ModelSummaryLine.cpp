#include "form/ModelSummaryLine.h"

#include "entrena/config/Registry.h"
#include "entrena/model/ModelSummary.h"
#include "form/DataShapeProbe.h"

#include <QLocale>

namespace entrena::ui {

ModelSummaryLine::ModelSummaryLine(QWidget* parent)
    : QLabel(parent)
    , probe_(new DataShapeProbe(this))
{
    setObjectName(QStringLiteral("modelSummary"));
    setWordWrap(true);
    connect(probe_, &DataShapeProbe::changed, this, [this] { showFor(shown_); });
}

void ModelSummaryLine::setDataProblem(const QString& problem)
{
    if (problem == dataProblem_)
        return;
    dataProblem_ = problem;
    Q_EMIT dataProblemChanged();
}

void ModelSummaryLine::showFor(const RunConfig& c)
{
    shown_ = c;
    if (registryEntry(c.model.arch).fromFile && c.model.path.empty()) {
        setDataProblem({});
        setText(tr("Choose the TorchScript file."));
        return;
    }
    if (registryEntry(c.data.dataset).needsPath && c.data.path.empty()) {
        setDataProblem({}); // the form's own check names the empty field
        setText(registryEntry(c.data.dataset).pathIsFile ? tr("Choose the data's file.") : tr("Choose the data's folder."));
        return;
    }
    const DataShapeProbe::Answer data = probe_->shapeOf(c.data);
    const DataShape known = data.ready && !data.failed ? data.shape : DataShape{};
    if (known.samples != shape_.samples || known.ownValidation != shape_.ownValidation) {
        shape_ = known;
        Q_EMIT dataShapeChanged();
    }
    if (!data.ready) {
        setText(tr("Reading the data's shape for the model's size…"));
        return;
    }
    setDataProblem(data.failed ? data.error : QString());
    if (data.failed) {
        setText(tr("The model's size is unknown: the data cannot be read (%1).").arg(data.error));
        return;
    }
    const DataShape& s = data.shape;
    const QLocale locale;
    const QString input = registryEntry(c.data.dataset).images ? tr("%1×%2×%3 inputs").arg(s.channels).arg(s.height).arg(s.width)
                                                               : tr("%1 features").arg(locale.toString(qlonglong(s.width)));
    // Never one class: the engine refuses data with fewer than two.
    const QString classes = tr("%1 classes").arg(locale.toString(qlonglong(s.classes.size())));
    if (registryEntry(c.model.arch).needsImages && !registryEntry(c.data.dataset).images) {
        setText(tr("This model needs images; a table of %1 trains an MLP.").arg(input));
        return;
    }
    try {
        const ModelSummary m = summarizeModel(c.model, s.channels, s.height, s.width, int64_t(s.classes.size()));
        QString text = m.flopsPerSample > 0 ? tr("%1 parameters · %2 MFLOP per sample (forward)")
                                                  .arg(locale.toString(qlonglong(m.parameters)))
                                                  .arg(locale.toString(m.flopsPerSample / 1e6, 'f', 2))
                                            : tr("%1 parameters").arg(locale.toString(qlonglong(m.parameters)));
        setText(text + QLatin1Char('\n') + tr("%1, %2").arg(input, classes));
    } catch (const std::exception& e) {
        setText(tr("This model cannot be built for %1: %2").arg(input, QString::fromStdString(e.what())));
    }
}

} // namespace entrena::ui
