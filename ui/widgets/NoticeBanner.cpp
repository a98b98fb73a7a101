#include "widgets/NoticeBanner.h"

#include "charts/ChartTheme.h"

#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace entrena::ui {

NoticeBanner::NoticeBanner(QWidget* parent)
    : QFrame(parent)
    , text_(new QLabel)
    , dismiss_(new QToolButton)
{
    setObjectName(QStringLiteral("noticeBanner"));
    text_->setObjectName(QStringLiteral("noticeText"));
    text_->setWordWrap(true);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    dismiss_->setObjectName(QStringLiteral("dismissNotice"));
    dismiss_->setText(QStringLiteral("✕"));
    dismiss_->setAutoRaise(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(text_, 1);
    layout->addWidget(dismiss_, 0, Qt::AlignTop);
    connect(dismiss_, &QToolButton::clicked, this, &NoticeBanner::clear);
    refresh();
    setVisible(false);
}

bool NoticeBanner::shows(const std::string& kind)
{
    return kind == "not_learning" || kind == "data_warning";
}

void NoticeBanner::add(const NoticeEvent& notice)
{
    if (!shows(notice.kind))
        return;
    notices_.push_back(notice);
    refresh();
    setVisible(true);
}

void NoticeBanner::clear()
{
    notices_.clear();
    refresh();
    setVisible(false);
}

QString NoticeBanner::text() const
{
    return text_->text();
}

void NoticeBanner::refresh()
{
    // The warning colour of the application's palette, so the strip reads in a dark theme too (the
    // widget's own palette is the style sheet's once one is set). Set only when it changes: a new
    // style sheet sends a palette change of its own.
    const QString sheet = QStringLiteral("QFrame#noticeBanner { background-color: %1; border-radius: 3px; }")
                              .arg(markColor(QApplication::palette(), false).name());
    if (styleSheet() != sheet)
        setStyleSheet(sheet);
    QStringList lines;
    for (const NoticeEvent& n : notices_) {
        const QString message = QString::fromStdString(n.message);
        lines << (n.kind == "not_learning" ? tr("⚠ Not learning (epoch %1): %2").arg(n.epoch).arg(message)
                                           : tr("⚠ Some data could not be read: %1").arg(message));
    }
    text_->setText(lines.join(QLatin1Char('\n')));
    dismiss_->setToolTip(tr("Dismiss"));
    dismiss_->setAccessibleName(tr("Dismiss"));
}

void NoticeBanner::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::ApplicationPaletteChange)
        refresh();
    QFrame::changeEvent(event);
}

} // namespace entrena::ui
