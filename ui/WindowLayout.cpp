#include "WindowLayout.h"

#include "settings/Settings.h"

#include <QAction>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSplitter>
#include <algorithm>

namespace entrena::ui {

WindowLayout::WindowLayout(QMainWindow* window, const Parts& parts)
    : QObject(window)
    , window_(window)
    , parts_(parts)
{
}

bool WindowLayout::restore()
{
    const bool geometry = window_->restoreGeometry(Settings::windowGeometry.value());
    window_->restoreState(Settings::windowState.value());
    parts_.main->restoreState(Settings::mainSplitter.value());
    parts_.charts->restoreState(Settings::chartsSplitter.value());
    const QByteArray header = Settings::runsHeader.value();
    if (!header.isEmpty()) {
        parts_.runsHeader->restoreState(header);
        parts_.runsHeader->setSectionsMovable(true); // a layout saved before headers could be dragged says not
    }
    parts_.form->setVisible(Settings::formShown.value());
    parts_.runs->setVisible(Settings::runsShown.value());
    if (form_)
        form_->setChecked(parts_.form->isVisibleTo(window_));
    if (runs_)
        runs_->setChecked(parts_.runs->isVisibleTo(window_));
    return geometry;
}

void WindowLayout::save() const
{
    Settings::windowGeometry.set(window_->saveGeometry());
    Settings::windowState.set(window_->saveState());
    Settings::mainSplitter.set(parts_.main->saveState());
    Settings::chartsSplitter.set(parts_.charts->saveState());
    Settings::runsHeader.set(parts_.runsHeader->saveState());
    Settings::formShown.set(parts_.form->isVisibleTo(window_));
    Settings::runsShown.set(parts_.runs->isVisibleTo(window_));
}

void WindowLayout::rememberForm(const RunConfig& config)
{
    Settings::lastForm.set(QString::fromStdString(config.toJson()));
}

std::optional<RunConfig> WindowLayout::rememberedForm()
{
    const QString json = Settings::lastForm.value();
    if (json.isEmpty())
        return std::nullopt;
    try {
        return RunConfig::fromJson(json.toStdString());
    } catch (const ConfigError&) {
        return std::nullopt;
    }
}

QMenu* WindowLayout::addViewMenu()
{
    menu_ = window_->menuBar()->addMenu(QString());
    menu_->setObjectName(QStringLiteral("viewMenu"));
    const auto toggle = [this](QWidget* part, const QKeySequence& keys, const char* name) {
        QAction* a = menu_->addAction(QString());
        a->setObjectName(QLatin1String(name));
        a->setCheckable(true);
        a->setChecked(part->isVisibleTo(window_));
        a->setShortcut(keys);
        connect(a, &QAction::toggled, part, &QWidget::setVisible);
        return a;
    };
    form_ = toggle(parts_.form, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), "showFormAction");
    runs_ = toggle(parts_.runs, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R), "showRunsAction");
    menu_->addSeparator();
    fullScreen_ = menu_->addAction(QString());
    fullScreen_->setObjectName(QStringLiteral("fullScreenAction"));
    fullScreen_->setCheckable(true);
    fullScreen_->setShortcut(QKeySequence::FullScreen);
    connect(fullScreen_, &QAction::toggled, this,
            [this](bool on) { window_->setWindowState(window_->windowState().setFlag(Qt::WindowFullScreen, on)); });
    reset_ = menu_->addAction(QString(), this, &WindowLayout::resetLayout);
    reset_->setObjectName(QStringLiteral("resetLayoutAction"));
    retranslate();
    return menu_;
}

void WindowLayout::resetLayout()
{
    form_->setChecked(true);
    runs_->setChecked(true);
    fullScreen_->setChecked(false);
    // The first start's proportions: the form as wide as it asks, the charts three quarters high.
    const QList<int> main = parts_.main->sizes(), charts = parts_.charts->sizes();
    const int width = main.value(0) + main.value(1), height = charts.value(0) + charts.value(1);
    const int form = std::min(parts_.form->sizeHint().width(), width / 2);
    parts_.main->setSizes({form, width - form});
    parts_.charts->setSizes({height * 3 / 4, height - height * 3 / 4});
}

void WindowLayout::retranslate()
{
    if (!menu_)
        return;
    menu_->setTitle(tr("&View"));
    form_->setText(tr("&Configuration"));
    runs_->setText(tr("&Runs list"));
    fullScreen_->setText(tr("&Full screen"));
    reset_->setText(tr("Reset &layout"));
}

} // namespace entrena::ui
