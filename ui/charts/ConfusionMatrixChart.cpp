#include "charts/ConfusionMatrixChart.h"

#include "charts/ChartTheme.h"

#include <QEvent>
#include <QLocale>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace entrena::ui {
namespace {

// Longer names are cut, with "…": twenty columns of full names do not fit beside each other.
constexpr int kLongestName = 14;

double luminance(QRgb c)
{
    return (0.299 * qRed(c) + 0.587 * qGreen(c) + 0.114 * qBlue(c)) / 255.0;
}

} // namespace

ConfusionMatrixChart::ConfusionMatrixChart(QWidget* parent)
    : QCustomPlot(parent)
    , map_(new QCPColorMap(xAxis, yAxis))
{
    setObjectName(QStringLiteral("confusionMatrix"));
    setMouseTracking(true);
    // True class 0 at the top, as a table is read.
    yAxis->setRangeReversed(true);
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->grid()->setVisible(false); // grid lines would cross the middle of the cells
        axis->setSubTicks(false);
        axis->setTickLength(0, 3);
    }
    map_->setInterpolate(false);
    map_->setTightBoundary(false);
    followPalette(this);
    connect(this, &QCustomPlot::afterLayout, this, &ConfusionMatrixChart::fitText);
    connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const QString text = hoverText(event->position());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, this);
        int t = 0, p = 0;
        setCursor(cellAt(event->position(), t, p) && count(t, p) > 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    });
    connect(this, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* event) {
        int t = 0, p = 0; // an empty cell has no samples to show
        if (event->button() == Qt::LeftButton && cellAt(event->position(), t, p) && count(t, p) > 0)
            Q_EMIT cellClicked(t, p);
    });
    retranslate();
}

void ConfusionMatrixChart::setReport(const EvaluationReport& report)
{
    report_ = report;
    clearItems();
    cells_.clear();
    const int k = classCount();
    auto* data = map_->data();
    data->setSize(k, k);
    data->setRange(QCPRange(0, std::max(1, k - 1)), QCPRange(0, std::max(1, k - 1)));
    auto rows = QSharedPointer<QCPAxisTickerText>::create();
    auto columns = QSharedPointer<QCPAxisTickerText>::create();
    const QLocale locale;
    for (int t = 0; t < k; ++t) {
        const QString name = shortName(QString::fromStdString(report_.classes[std::size_t(t)]));
        rows->addTick(t, name);
        columns->addTick(t, name);
        int64_t total = 0;
        for (int64_t c : report_.confusion[std::size_t(t)])
            total += c;
        for (int p = 0; p < k; ++p) {
            const int64_t count = report_.confusion[std::size_t(t)][std::size_t(p)];
            data->setCell(p, t, total > 0 ? double(count) / double(total) : 0.0);
            auto* text = new QCPItemText(this);
            text->position->setType(QCPItemPosition::ptPlotCoords);
            text->position->setCoords(p, t);
            text->setPositionAlignment(Qt::AlignCenter);
            text->setText(locale.toString(qlonglong(count)));
            text->setClipToAxisRect(true);
            cells_.push_back(text);
        }
    }
    yAxis->setTicker(rows);
    xAxis->setTicker(columns);
    turnColumnNames();
    xAxis->setRange(-0.5, k - 0.5);
    yAxis->setRange(-0.5, k - 0.5);
    map_->setDataRange(QCPRange(0, 1));
    recolour();
    replot(rpQueuedReplot);
}

void ConfusionMatrixChart::recolour()
{
    // From the background to a strong blue: an empty cell is the chart's own background, in light
    // and dark palettes alike, and the text on a cell is dark or light by what lies under it.
    const QColor base = palette().color(QPalette::Base);
    const bool dark = base.lightness() < 128;
    QCPColorGradient gradient;
    gradient.setColorStopAt(0, base);
    gradient.setColorStopAt(1, dark ? QColor(74, 144, 226) : QColor(8, 69, 148));
    gradient.setLevelCount(256);
    map_->setGradient(gradient);
    const int k = classCount();
    for (int t = 0; t < k; ++t)
        for (int p = 0; p < k; ++p) {
            const QRgb under = gradient.color(mapShare(t, p), QCPRange(0, 1));
            cells_[t * k + p]->setColor(luminance(under) < 0.55 ? Qt::white : QColor(20, 20, 20));
        }
}

void ConfusionMatrixChart::fitText()
{
    // The counts' size follows the cells': about a third of the cell's height, and never wider
    // than the cell for the longest count.
    const int k = classCount();
    if (k == 0)
        return;
    const double cellW = axisRect()->width() / double(k), cellH = axisRect()->height() / double(k);
    QString longest;
    for (const QCPItemText* c : std::as_const(cells_))
        if (c->text().size() > longest.size())
            longest = c->text();
    QFont f = font();
    double px = std::clamp(cellH * 0.36, 7.0, 16.0);
    for (; px > 6.0; px -= 0.5) {
        f.setPixelSize(int(px));
        if (QFontMetrics(f).horizontalAdvance(longest) <= cellW * 0.9)
            break;
    }
    f.setPixelSize(int(px));
    for (QCPItemText* c : std::as_const(cells_))
        c->setFont(f);
}

double ConfusionMatrixChart::mapShare(int trueClass, int predicted) const
{
    return map_->data()->cell(predicted, trueClass);
}

QString ConfusionMatrixChart::cellText(int trueClass, int predicted) const
{
    const int k = classCount();
    if (trueClass < 0 || predicted < 0 || trueClass >= k || predicted >= k)
        return QString();
    return cells_[trueClass * k + predicted]->text();
}

QStringList ConfusionMatrixChart::axisLabels(Qt::Orientation orientation) const
{
    const QCPAxis* axis = orientation == Qt::Horizontal ? xAxis : yAxis;
    const auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? QStringList(ticker->ticks().values()) : QStringList();
}

QString ConfusionMatrixChart::shortName(const QString& name)
{
    return name.size() <= kLongestName ? name : name.left(kLongestName - 1) + QChar(0x2026);
}

bool ConfusionMatrixChart::cellAt(const QPointF& pos, int& trueClass, int& predicted) const
{
    const int k = classCount();
    if (k == 0 || !axisRect()->rect().contains(pos.toPoint()))
        return false;
    const int p = int(std::lround(xAxis->pixelToCoord(pos.x())));
    const int t = int(std::lround(yAxis->pixelToCoord(pos.y())));
    if (p < 0 || t < 0 || p >= k || t >= k)
        return false;
    trueClass = t;
    predicted = p;
    return true;
}

QPoint ConfusionMatrixChart::cellCentre(int trueClass, int predicted) const
{
    return QPointF(xAxis->coordToPixel(predicted), yAxis->coordToPixel(trueClass)).toPoint();
}

QString ConfusionMatrixChart::hoverText(const QPointF& pos) const
{
    int t = 0, p = 0;
    if (!cellAt(pos, t, p))
        return QString();
    const QString text =
        tr("True: %1\nPredicted: %2\n%3 samples (%4% of the true class)")
            .arg(QString::fromStdString(report_.classes[std::size_t(t)]), QString::fromStdString(report_.classes[std::size_t(p)]),
                 cellText(t, p), QLocale().toString(mapShare(t, p) * 100.0, 'f', 1));
    return count(t, p) > 0 ? text + QLatin1Char('\n') + tr("Click to see them.") : text;
}

int64_t ConfusionMatrixChart::count(int trueClass, int predicted) const
{
    const auto& m = report_.confusion;
    return trueClass >= 0 && std::size_t(trueClass) < m.size() && predicted >= 0 &&
                   std::size_t(predicted) < m[std::size_t(trueClass)].size()
               ? m[std::size_t(trueClass)][std::size_t(predicted)]
               : 0;
}

void ConfusionMatrixChart::retranslate()
{
    xAxis->setLabel(tr("Predicted class"));
    yAxis->setLabel(tr("True class"));
}

void ConfusionMatrixChart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::PaletteChange)
        recolour();
    QCustomPlot::changeEvent(event);
}

void ConfusionMatrixChart::resizeEvent(QResizeEvent* event)
{
    turnColumnNames();
    QCustomPlot::resizeEvent(event);
}

void ConfusionMatrixChart::turnColumnNames()
{
    // The column names are turned when they would not fit side by side, and back when the chart
    // grows. The cells' width is estimated from the widget's: the rows' names take the left.
    const int k = classCount();
    if (k == 0)
        return;
    int widest = 0;
    for (const std::string& c : report_.classes)
        widest = std::max(widest, fontMetrics().horizontalAdvance(shortName(QString::fromStdString(c))));
    const int cell = (width() - widest - 60) / k;
    // Upright when they fit; slanted while a slanted name clears its neighbour (about 1.5 lines
    // apart); straight up when the cells are narrower still.
    const int line = fontMetrics().height();
    xAxis->setTickLabelRotation(widest + 8 <= cell ? 0 : cell >= line * 3 / 2 ? -45 : -90);
}

} // namespace entrena::ui
