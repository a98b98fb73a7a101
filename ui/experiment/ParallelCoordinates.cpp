#include "experiment/ParallelCoordinates.h"

#include "form/KeyLabels.h"
#include "entrena/experiment/MetricRegistry.h"
#include "form/KeyField.h"

#include <QEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace entrena::ui {

namespace {

constexpr int kGrab = 12; ///< how near an axis (pixels) a drag starts a brush

std::optional<double> numberOf(const std::string& json)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + QByteArray::fromStdString(json) + "]");
    if (doc.isArray() && doc.array().size() == 1 && doc.array().at(0).isDouble())
        return doc.array().at(0).toDouble();
    return std::nullopt;
}

/// Worst to best: blue, teal, yellow-green, orange; each readable on a light and a dark background.
QColor ramp(double t)
{
    static const QColor stops[] = {QColor(65, 105, 225), QColor(32, 178, 170), QColor(154, 205, 50), QColor(255, 150, 0)};
    t = std::clamp(t, 0.0, 1.0) * 3.0;
    const int i = std::min(2, int(t));
    const double f = t - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor(int(a.red() + f * (b.red() - a.red())), int(a.green() + f * (b.green() - a.green())),
                  int(a.blue() + f * (b.blue() - a.blue())));
}

} // namespace

ParallelCoordinates::ParallelCoordinates(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("parallelCoordinates"));
    setMouseTracking(true);
    setFocusPolicy(Qt::NoFocus);
    setAccessibleName(tr("Parallel coordinates of the trials"));
    setToolTip(tr("One axis per parameter and one for the metric; a line per trial, coloured by its metric. Drag "
                  "along an axis to keep the trials in that range; click the axis to clear it."));
}

void ParallelCoordinates::setData(const ExperimentData& data)
{
    // Brushes survive a reload (the view refreshes while the experiment runs) when the axes stay.
    std::vector<std::optional<std::pair<double, double>>> brushes;
    for (const Axis& a : axes_)
        brushes.push_back(a.brush);
    const std::size_t oldCount = axes_.size();
    axes_.clear();
    lines_.clear();
    higherIsBetter_ = data.higherIsBetter();
    for (const auto& [key, d] : data.params) {
        Axis a;
        a.title = keyLabel(QString::fromStdString(key)).replace(QLatin1Char('.'), QStringLiteral(".\u200B")); // may wrap after a dot
        a.categorical = d.kind == Distribution::Kind::Choice;
        a.log = d.kind == Distribution::Kind::LogUniform;
        for (const std::string& c : d.choices)
            a.categories << QString::fromStdString(c);
        a.low = a.log ? std::log10(d.low) : d.low;
        a.high = a.log ? std::log10(d.high) : d.high;
        axes_.push_back(a);
    }
    // pbt perturbs values beyond the space's range: the axes widen to show every trial.
    for (const TrialRow& t : data.trials)
        for (std::size_t i = 0; i < axes_.size() && i < t.values.size(); ++i)
            if (const auto v = numberOf(t.values[i]); v && !axes_[i].categorical && (!axes_[i].log || *v > 0)) {
                const double x = axes_[i].log ? std::log10(*v) : *v;
                axes_[i].low = std::min(axes_[i].low, x);
                axes_[i].high = std::max(axes_[i].high, x);
            }
    Axis metric;
    const MetricEntry& compared = metricOrDefault(data.experiment.metric);
    metric.title = registryText(compared.label);
    metric.percent = compared.percent;
    bool any = false;
    for (const TrialRow& t : data.trials)
        if (t.metric) {
            metric.low = any ? std::min(metric.low, *t.metric) : *t.metric;
            metric.high = any ? std::max(metric.high, *t.metric) : *t.metric;
            any = true;
        }
    if (any && metric.high - metric.low < 1e-12) { // one value: a small range around it
        metric.low -= 0.01;
        metric.high += 0.01;
    }
    axes_.push_back(metric);
    if (axes_.size() == oldCount)
        for (std::size_t i = 0; i < axes_.size(); ++i)
            axes_[i].brush = brushes[i];

    for (const TrialRow& t : data.trials) {
        Line line;
        line.runId = t.runId;
        line.metric = t.metric;
        for (std::size_t i = 0; i + 1 < axes_.size(); ++i)
            line.at.push_back(i < t.values.size() ? position(int(i), t.values[i]) : std::nullopt);
        line.at.push_back(t.metric ? metricPosition(*t.metric) : std::nullopt);
        lines_.push_back(line);
    }
    update();
    Q_EMIT selectionChanged();
}

QString ParallelCoordinates::axisTitle(int axis) const
{
    return axis >= 0 && axis < axisCount() ? QString(axes_[axis].title).remove(QChar(0x200B)) : QString();
}

std::optional<double> ParallelCoordinates::position(int axis, const std::string& json) const
{
    if (axis < 0 || axis + 1 >= axisCount() || json.empty())
        return std::nullopt;
    const Axis& a = axes_[axis];
    if (a.categorical) {
        qsizetype i = a.categories.indexOf(QString::fromStdString(json));
        // The same number written another way ("0.10" for "0.1").
        for (qsizetype c = 0; i < 0 && c < a.categories.size(); ++c) {
            const auto x = numberOf(a.categories[c].toStdString());
            const auto y = numberOf(json);
            if (x && y && std::abs(*x - *y) <= 1e-12 * std::max(1.0, std::abs(*x)))
                i = c;
        }
        if (i < 0)
            return std::nullopt;
        return a.categories.size() == 1 ? 0.5 : double(i) / double(a.categories.size() - 1);
    }
    auto v = numberOf(json);
    if (!v || (a.log && *v <= 0))
        return std::nullopt;
    const double x = a.log ? std::log10(*v) : *v;
    return a.high > a.low ? (x - a.low) / (a.high - a.low) : 0.5;
}

std::optional<double> ParallelCoordinates::metricPosition(double metric) const
{
    if (axes_.empty())
        return std::nullopt;
    const Axis& a = axes_.back();
    return a.high > a.low ? (metric - a.low) / (a.high - a.low) : 0.5;
}

void ParallelCoordinates::setBrush(int axis, double from, double to)
{
    if (axis < 0 || axis >= axisCount())
        return;
    axes_[axis].brush = std::make_pair(std::clamp(std::min(from, to), 0.0, 1.0), std::clamp(std::max(from, to), 0.0, 1.0));
    update();
    Q_EMIT selectionChanged();
}

void ParallelCoordinates::setBrushValues(int axis, double low, double high)
{
    if (axis < 0 || axis >= axisCount() || axes_[axis].categorical)
        return;
    const Axis& a = axes_[axis];
    const auto at = [&a](double v) {
        const double x = a.log ? std::log10(std::max(v, 1e-300)) : v;
        return a.high > a.low ? (x - a.low) / (a.high - a.low) : 0.5;
    };
    setBrush(axis, at(low), at(high));
}

void ParallelCoordinates::clearBrushes()
{
    for (Axis& a : axes_)
        a.brush.reset();
    update();
    Q_EMIT selectionChanged();
}

bool ParallelCoordinates::hasBrush() const
{
    return std::any_of(axes_.begin(), axes_.end(), [](const Axis& a) { return a.brush.has_value(); });
}

bool ParallelCoordinates::inside(const Line& line) const
{
    constexpr double kEdge = 1e-9; // a value on the brush's edge is inside
    for (std::size_t i = 0; i < axes_.size(); ++i) {
        const auto& b = axes_[i].brush;
        if (!b)
            continue;
        if (!line.at[i] || *line.at[i] < b->first - kEdge || *line.at[i] > b->second + kEdge)
            return false;
    }
    return true;
}

QList<qint64> ParallelCoordinates::selectedRuns() const
{
    QList<qint64> runs;
    for (const Line& l : lines_)
        if (inside(l))
            runs << l.runId;
    return runs;
}

void ParallelCoordinates::setHighlighted(const QList<qint64>& runs)
{
    highlighted_ = QSet<qint64>(runs.begin(), runs.end());
    update();
}

QSize ParallelCoordinates::minimumSizeHint() const
{
    return {360, 220};
}

QRect ParallelCoordinates::plotArea() const
{
    const QFontMetrics fm(font());
    int left = fm.horizontalAdvance(QStringLiteral("0.0000")) + 14;
    int right = 28; // the metric's colour bar
    if (!axes_.empty())
        for (double p : {0.0, 0.5, 1.0})
            left = std::max(left, fm.horizontalAdvance(tickText(axes_.front(), p)) + 14);
    if (!axes_.empty() && axes_.front().categorical)
        for (const QString& c : axes_.front().categories)
            left = std::max(left, fm.horizontalAdvance(valueText(c.toStdString())) + 14);
    // The edge axes' titles are centred on them: room for their halves beside the plot.
    if (!axes_.empty()) {
        left = std::max(left, halfTitle(axes_.front()) + 2);
        right = std::max(right, halfTitle(axes_.back()) + 2);
    }
    const int top = 3 * fm.height() + 10; // a title of up to two lines, and room for the top tick
    const int bottom = fm.height();
    return QRect(QPoint(left, top), QPoint(width() - right, height() - bottom));
}

int ParallelCoordinates::axisX(int axis) const
{
    const QRect area = plotArea();
    if (axisCount() <= 1)
        return area.center().x();
    return area.left() + int(double(area.width()) * axis / double(axisCount() - 1));
}

double ParallelCoordinates::positionAtY(int y) const
{
    const QRect area = plotArea();
    return std::clamp(double(area.bottom() - y) / double(std::max(1, area.height())), 0.0, 1.0);
}

QPoint ParallelCoordinates::pointAt(int axis, double position) const
{
    const QRect area = plotArea();
    return {axisX(axis), area.bottom() - int(std::lround(position * area.height()))};
}

int ParallelCoordinates::axisNear(int x) const
{
    for (int i = 0; i < axisCount(); ++i)
        if (std::abs(x - axisX(i)) <= kGrab)
            return i;
    return -1;
}

QColor ParallelCoordinates::colorOf(double metric) const
{
    const auto p = metricPosition(metric);
    const double t = p.value_or(0.5);
    return ramp(higherIsBetter_ ? t : 1.0 - t);
}

QString ParallelCoordinates::tickText(const Axis& a, double position) const
{
    if (a.categorical) {
        if (a.categories.isEmpty())
            return {};
        const int i = int(std::lround(position * (a.categories.size() - 1)));
        return valueText(a.categories[std::clamp(i, 0, int(a.categories.size() - 1))].toStdString());
    }
    const double x = a.low + position * (a.high - a.low);
    if (a.percent)
        return QLocale().toString(100.0 * x, 'g', 3) + QStringLiteral(" %");
    return QLocale().toString(a.log ? std::pow(10.0, x) : x, 'g', 3).remove(QLocale().groupSeparator());
}

int ParallelCoordinates::halfTitle(const Axis& a) const
{
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fm(bold);
    // The title on one line when that fits an axis's share of the width, else on two lines split
    // where the longer line is shortest (after a key's dot, or between words).
    const QString text = QString(a.title).remove(QChar(0x200B));
    const int whole = fm.horizontalAdvance(text);
    const int room = axisCount() > 1 ? std::max(60, width() / axisCount() - 8) : width();
    if (whole <= room)
        return whole / 2 + 4;
    int best = whole;
    for (int i = 1; i < a.title.size(); ++i) {
        const QChar c = a.title[i - 1];
        if (c != QChar(0x200B) && c != QLatin1Char(' '))
            continue;
        const QString first = a.title.left(i).remove(QChar(0x200B)).trimmed();
        const QString second = a.title.mid(i).remove(QChar(0x200B)).trimmed();
        best = std::min(best, std::max(fm.horizontalAdvance(first), fm.horizontalAdvance(second)));
    }
    return best / 2 + 4;
}

// The trials' lines: faded ones first, so the chosen ones (inside every brush) are drawn over them.
void ParallelCoordinates::paintLines(QPainter& p, const QRect& area)
{
    const QPalette pal = palette();
    const bool brushed = hasBrush();
    for (int pass = 0; pass < 2; ++pass) {
        for (const Line& l : lines_) {
            const bool chosen = !brushed || inside(l);
            if (chosen != (pass == 1))
                continue;
            QColor c = l.metric ? colorOf(*l.metric) : pal.color(QPalette::Mid);
            if (!chosen)
                c.setAlpha(45);
            QPen pen(c, highlighted_.contains(l.runId) ? 3.5 : chosen && brushed ? 2.2 : 1.5);
            if (!l.metric)
                pen.setStyle(Qt::DashLine);
            p.setPen(pen);
            QPainterPath path;
            bool open = false;
            for (int i = 0; i < axisCount(); ++i) {
                if (!l.at[i]) {
                    open = false;
                    continue;
                }
                const QPointF pt(axisX(i), area.bottom() - *l.at[i] * area.height());
                if (open)
                    path.lineTo(pt);
                else
                    path.moveTo(pt);
                open = true;
            }
            p.drawPath(path);
        }
    }
}

// Axis `i`: its line, brush, ticks and title (the metric's, the last, with its colours beside it).
void ParallelCoordinates::paintAxis(QPainter& p, const QRect& area, int i)
{
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QFontMetrics fm(font());
    QColor brushFill = pal.color(QPalette::Highlight);
    brushFill.setAlpha(70);
    const Axis& a = axes_[i];
    const int x = axisX(i);
    if (i + 1 == axisCount()) { // the metric's colours beside its axis
        QLinearGradient g(0, area.bottom(), 0, area.top());
        for (double s = 0; s <= 1.0001; s += 0.25)
            g.setColorAt(s, ramp(higherIsBetter_ ? s : 1.0 - s));
        p.fillRect(QRect(x + 4, area.top(), 8, area.height()), g);
    }
    p.setPen(QPen(text, 1.2));
    p.drawLine(x, area.top(), x, area.bottom());
    if (a.brush) {
        const QRectF r(x - 8, area.bottom() - a.brush->second * area.height(), 16,
                       (a.brush->second - a.brush->first) * area.height());
        p.fillRect(r, brushFill);
        p.setPen(QPen(pal.color(QPalette::Highlight), 1));
        p.drawRect(r);
    }
    p.setPen(text);
    QList<double> ticks;
    if (a.categorical)
        for (int c = 0; c < a.categories.size(); ++c)
            ticks << (a.categories.size() == 1 ? 0.5 : double(c) / double(a.categories.size() - 1));
    else
        ticks = {0.0, 0.5, 1.0};
    for (double t : ticks) {
        const int y = area.bottom() - int(std::lround(t * area.height()));
        p.drawLine(x - 3, y, x, y);
        const QString label = tickText(a, t);
        const int w = fm.horizontalAdvance(label);
        p.drawText(QRect(x - w - 6, y - fm.height() / 2, w, fm.height()), Qt::AlignRight | Qt::AlignVCenter, label);
    }
    // The title above the axis, in the room between its neighbours, kept inside the widget.
    // Its share of the width, centred on it: titles wrap rather than run into their neighbours'
    // or off the edge (the margins leave the edge axes room for two lines).
    const int spacing = axisCount() > 1 ? axisX(1) - axisX(0) - 8 : area.width();
    const int room = std::max(40, std::min(spacing, 2 * std::min(x, width() - x) - 2));
    const QRect title(x - room / 2, 2, room, 2 * fm.height() + 2);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(title, Qt::AlignHCenter | Qt::AlignBottom | Qt::TextWordWrap, a.title);
    p.setFont(font());
}

void ParallelCoordinates::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    if (axes_.size() <= 1 || lines_.empty()) {
        p.setPen(pal.color(QPalette::Disabled, QPalette::WindowText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("No trials yet."));
        return;
    }
    const QRect area = plotArea();
    paintLines(p, area);
    for (int i = 0; i < axisCount(); ++i)
        paintAxis(p, area, i);
}

void ParallelCoordinates::mousePressEvent(QMouseEvent* event)
{
    const QRect area = plotArea().adjusted(0, -6, 0, 6);
    const QPoint pos = event->position().toPoint();
    dragAxis_ = event->button() == Qt::LeftButton && area.contains(QPoint(area.left(), pos.y())) ? axisNear(pos.x()) : -1;
    dragFrom_ = pos.y();
}

void ParallelCoordinates::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (dragAxis_ < 0) {
        setCursor(axisNear(pos.x()) >= 0 ? Qt::SizeVerCursor : Qt::ArrowCursor);
        return;
    }
    if (std::abs(pos.y() - dragFrom_) >= 3) {
        axes_[dragAxis_].brush = std::make_pair(std::min(positionAtY(dragFrom_), positionAtY(pos.y())),
                                                std::max(positionAtY(dragFrom_), positionAtY(pos.y())));
        update();
    }
}

void ParallelCoordinates::mouseReleaseEvent(QMouseEvent* event)
{
    if (dragAxis_ < 0)
        return;
    const int y = event->position().toPoint().y();
    if (std::abs(y - dragFrom_) < 3)
        axes_[dragAxis_].brush.reset(); // a click: this axis keeps every trial again
    else
        axes_[dragAxis_].brush =
            std::make_pair(std::min(positionAtY(dragFrom_), positionAtY(y)), std::max(positionAtY(dragFrom_), positionAtY(y)));
    dragAxis_ = -1;
    update();
    Q_EMIT selectionChanged();
}

void ParallelCoordinates::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        setToolTip(tr("One axis per parameter and one for the metric; a line per trial, coloured by its metric. Drag "
                      "along an axis to keep the trials in that range; click the axis to clear it."));
    QWidget::changeEvent(event);
}

} // namespace entrena::ui
