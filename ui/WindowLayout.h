#pragma once

#include "entrena/config/Config.h"

#include <QObject>

#include <optional>

class QAction;
class QHeaderView;
class QMainWindow;
class QMenu;
class QSplitter;
class QWidget;

namespace entrena::ui {

/// The main window's arrangement, kept across sessions and offered in the View menu: the window's
/// geometry and state, where its two splitters stand, the runs list's columns, and whether the
/// form and the runs list are shown (a person who only watches charts hides the form).
class WindowLayout : public QObject {
    Q_OBJECT
public:
    struct Parts {
        QSplitter* main = nullptr;   ///< the form | the rest
        QSplitter* charts = nullptr; ///< the charts / the runs
        QWidget* form = nullptr;
        QWidget* runs = nullptr;
        QHeaderView* runsHeader = nullptr;
    };
    WindowLayout(QMainWindow* window, const Parts& parts);

    /// What the last session left; false when there was nothing to restore (a first start).
    bool restore();
    void save() const;
    /// Adds View to the window's menu bar: show or hide the form and the runs list, full screen,
    /// and back to the arrangement of a first start.
    QMenu* addViewMenu();
    void retranslate();

    /// The form's configuration, kept at quit for the next start without --config.
    static void rememberForm(const RunConfig& config);
    /// What rememberForm() kept, when it is still a valid configuration (a data folder since
    /// removed, say, makes it invalid: the caller loads the defaults instead).
    static std::optional<RunConfig> rememberedForm();

    QAction* formAction() const { return form_; }
    QAction* runsAction() const { return runs_; }

private:
    void resetLayout();

    QMainWindow* window_;
    Parts parts_;
    QMenu* menu_ = nullptr;
    QAction* form_ = nullptr;
    QAction* runs_ = nullptr;
    QAction* fullScreen_ = nullptr;
    QAction* reset_ = nullptr;
};

} // namespace entrena::ui
