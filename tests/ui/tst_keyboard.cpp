// The keyboard a person can see (issue 53, item 1): Tab alone reaches every control of the main
// window and of every dialog it opens, each stop shows a focus ring of at least 3:1 against the
// window, has a name assistive technology reads, lies on the screen (scrolled into view inside the
// form), and no control traps the Tab key. Start looks different with the focus than without it.
#include "../tools/OffscreenScreen.h"
#include "MainWindow.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"
#include "settings/Theme.h"
#include "widgets/FocusRing.h"

#include <QAbstractScrollArea>
#include <QAccessible>
#include <QFormLayout>
#include <QLabel>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QMenu>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTimer>
#include <QtTest>

using namespace entrena;
using namespace entrena::ui;

namespace {

constexpr QSize kScreen(1280, 720);

RunConfig formRun()
{
    return RunConfig::fromJson(R"({"name": "keys", "seed": 4,
        "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "batch_size": 64, "train_limit": 1000},
        "model": {"arch": "mlp"}, "scheduler": {"name": "constant"}, "train": {"epochs": 1}})");
}

QString describe(QWidget* w)
{
    if (!w)
        return QStringLiteral("(nothing)");
    QString name = w->objectName();
    if (name.isEmpty() && w->parentWidget())
        name = QStringLiteral("child of ") + w->parentWidget()->objectName();
    return QStringLiteral("%1 '%2'").arg(QString::fromLatin1(w->metaObject()->className()), name);
}

/// What assistive technology reads as the control's name.
QString accessibleName(QWidget* w)
{
    QAccessibleInterface* a = QAccessible::queryAccessibleInterface(w);
    return a ? a->text(QAccessible::Name).trimmed() : QString();
}

/// The label a form shows for `w`: beside it, or beside the row whose first control it is; null when
/// `w` is not a form's field (or its label is empty).
QLabel* formLabelOf(QWidget* w)
{
    QWidget* parent = w->parentWidget();
    auto* form = parent ? qobject_cast<QFormLayout*>(parent->layout()) : nullptr;
    if (!form)
        return nullptr;
    QWidget* label = form->labelForField(w);
    for (int i = 0; !label && i < form->rowCount(); ++i) {
        QLayoutItem* field = form->itemAt(i, QFormLayout::FieldRole);
        QLayout* row = field ? field->layout() : nullptr;
        for (int j = 0; row && j < row->count(); ++j) {
            QWidget* first = row->itemAt(j)->widget();
            if (first && (first->focusPolicy() & Qt::TabFocus)) {
                if (first == w)
                    label = form->labelForField(row);
                break;
            }
        }
    }
    auto* text = qobject_cast<QLabel*>(label);
    return text && !text->text().trimmed().isEmpty() ? text : nullptr;
}

/// Whether assistive technology reads `label` as what names `w` (`label` is its Label relation, which
/// Orca reads: on Linux a combo box's name is its current choice, so the name alone does not say).
bool labelledBy(QWidget* w, QLabel* label)
{
    QAccessibleInterface* a = QAccessible::queryAccessibleInterface(w);
    const auto relations = a ? a->relations(QAccessible::Label) : decltype(a->relations()){}; // its labels
    for (const auto& relation : relations)
        if (relation.first && relation.first->object() == label)
            return true;
    return false;
}

/// What is wrong with the focus on `w` ("" when nothing): it must show, with the ring around it.
QString stopProblem(QWidget* w)
{
    QWidget* window = w->window();
    const QRect visible = w->visibleRegion().boundingRect();
    if (!w->isVisible() || visible.isEmpty())
        return QStringLiteral("has the focus but cannot be seen");
    const QRect onWindow(w->mapTo(window, visible.topLeft()), visible.size());
    if (!window->rect().intersects(onWindow))
        return QStringLiteral("lies outside its window");
    FocusRing* ring = FocusRing::instance(); // the one the window installed (never made here)
    if (!ring || ring->target() != w || !ring->isShown() || ring->ring()->parentWidget() != window)
        return QStringLiteral("shows no focus ring");
    if (!ring->ring()->geometry().contains(onWindow.intersected(window->rect())))
        return QStringLiteral("is not inside its ring");
    if (FocusRing::contrast(FocusRing::ringColour(window->palette()), window->palette().color(QPalette::Window)) < 3.0)
        return QStringLiteral("has a ring under 3:1 against the window");
    if (accessibleName(w).isEmpty())
        return QStringLiteral("has no accessible name");
    if (QLabel* label = formLabelOf(w); label && !labelledBy(w, label))
        return QStringLiteral("is not named by its label '%1'").arg(label->text());
    return {};
}

/// Whether `w` is the only control of its window that Tab can reach (a message's one button).
bool aloneInItsWindow(QWidget* w)
{
    for (QWidget* other : w->window()->findChildren<QWidget*>())
        if (other != w && other->isVisible() && other->isEnabled() && (other->focusPolicy() & Qt::TabFocus) &&
            !w->isAncestorOf(other) && !other->isAncestorOf(w))
            return false;
    return true;
}

/// Tabs through `window` from its focus until the stops repeat; every problem found, one a line.
QStringList walkByTab(QWidget* window, QList<QWidget*>* stops = nullptr)
{
    QStringList problems;
    QList<QWidget*> seen;
    window->activateWindow();
    (void)QTest::qWaitFor([&] { return QApplication::focusWidget() && QApplication::focusWidget()->window() == window; }, 2000);
    if (!QApplication::focusWidget() || QApplication::focusWidget()->window() != window)
        QTest::keyClick(window, Qt::Key_Tab);
    for (int i = 0; i < 300; ++i) {
        QWidget* f = QApplication::focusWidget();
        if (!f || f->window() != window)
            return problems << QStringLiteral("Tab left the window after %1").arg(describe(seen.value(seen.size() - 1)));
        if (seen.contains(f))
            break;
        seen << f;
        QApplication::processEvents();
        if (const QString p = stopProblem(f); !p.isEmpty())
            problems << describe(f) + QStringLiteral(" ") + p;
        QTest::keyClick(f, Qt::Key_Tab);
        // A text with links moves from link to link first, as a browser does: it must leave after them.
        for (int link = 0; link < 200 && QApplication::focusWidget() == f && qobject_cast<QTextBrowser*>(f); ++link)
            QTest::keyClick(f, Qt::Key_Tab);
        if (QApplication::focusWidget() == f && !aloneInItsWindow(f)) // the key stayed: a trap
            return problems << describe(f) + QStringLiteral(" keeps the Tab key");
    }
    if (seen.size() >= 300)
        problems << QStringLiteral("Tab never came back to where it started");
    if (stops)
        *stops = seen;
    return problems;
}

} // namespace

class TestKeyboard : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        qputenv("XDG_CONFIG_HOME", dir_.filePath(QStringLiteral("config")).toUtf8()); // fresh settings
        QSettings().clear();
    }

    void theMainWindowIsWalkedByTabAlone_data()
    {
        QTest::addColumn<QString>("theme");
        QTest::newRow("light") << QStringLiteral("light");
        QTest::newRow("dark") << QStringLiteral("dark");
    }
    void theMainWindowIsWalkedByTabAlone()
    {
        QFETCH(QString, theme);
        applyTheme(theme);
        MainWindow w(dir_.filePath(QStringLiteral("runs.sqlite")), formRun(), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The focus starts where reading starts, and Tab goes down the form before its buttons (a
        // walk found the form's scroll area first, then Start, Find LR… before Run name).
        QTRY_COMPARE(QApplication::focusWidget() ? QApplication::focusWidget()->objectName() : QString(), QStringLiteral("nameEdit"));
        QList<QWidget*> stops;
        const QStringList problems = walkByTab(&w, &stops);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        // The stops a run needs are among them: the name, the data set, Start, the runs list.
        QStringList names;
        for (QWidget* s : stops)
            names << s->objectName();
        for (const char* needed : {"nameEdit", "startButton", "runsView"})
            QVERIFY2(names.contains(QLatin1String(needed)), qPrintable(names.join(QLatin1Char(' '))));
        QVERIFY2(names.indexOf(QStringLiteral("learningRateBox")) < names.indexOf(QStringLiteral("startButton")),
                 qPrintable(names.join(QLatin1Char(' '))));
        applyTheme(QString());
    }

    // Regression: Start with and without the focus were equal pixel for pixel, so Space started a
    // run the person could not see coming.
    void startShowsItHasTheFocus()
    {
        MainWindow w(dir_.filePath(QStringLiteral("runs.sqlite")), formRun(), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* start = w.findChild<QPushButton*>(QStringLiteral("startButton"));
        QVERIFY(start);
        const QRect around = QRect(start->mapTo(&w, QPoint(0, 0)), start->size()).adjusted(-4, -4, 4, 4);
        w.findChild<QWidget*>(QStringLiteral("nameEdit"))->setFocus(Qt::TabFocusReason);
        QApplication::processEvents();
        const QImage without = w.grab(around).toImage();
        start->setFocus(Qt::TabFocusReason);
        QApplication::processEvents();
        const QImage with = w.grab(around).toImage();
        QVERIFY(with != without);
        // A click's focus shows none, as on the desktop.
        QTest::mouseClick(w.findChild<QWidget*>(QStringLiteral("nameEdit")), Qt::LeftButton);
        QTRY_VERIFY(!FocusRing::instance()->isShown());
    }

    // Tabbing from Start and the runs back into the form scrolled nothing: Run name stayed out of view.
    void aFieldThatTakesTheFocusScrollsIntoView()
    {
        MainWindow w(dir_.filePath(QStringLiteral("runs.sqlite")), formRun(), languages_);
        w.resize(1280, 600);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* form = w.findChild<QScrollArea*>();
        QVERIFY(form);
        form->verticalScrollBar()->setValue(form->verticalScrollBar()->maximum());
        QWidget* name = w.findChild<QWidget*>(QStringLiteral("nameEdit"));
        QVERIFY(name->visibleRegion().isEmpty()); // scrolled away
        w.findChild<QWidget*>(QStringLiteral("startButton"))->setFocus(Qt::TabFocusReason); // the focus elsewhere first
        name->setFocus(Qt::BacktabFocusReason);
        QTRY_VERIFY(!name->visibleRegion().isEmpty());
    }

    void everyDialogIsWalkedByTabAlone()
    {
        MainWindow w(dir_.filePath(QStringLiteral("runs.sqlite")), formRun(), languages_);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QStringList problems;
        const auto action = [&](const char* name) { return w.findChild<QAction*>(QLatin1String(name)); };
        const auto walkOpened = [&](const QString& what) {
            QWidget* opened = nullptr;
            (void)QTest::qWaitFor(
                [&] {
                    for (QWidget* t : QApplication::topLevelWidgets())
                        if (t != &w && t->isVisible() && !qobject_cast<QMenu*>(t) && t->windowType() != Qt::ToolTip)
                            opened = t;
                    return opened != nullptr;
                },
                10000);
            if (!opened)
                return problems << what + QStringLiteral(": nothing opened"), void();
            (void)QTest::qWaitForWindowExposed(opened);
            for (const QString& p : walkByTab(opened))
                problems << what + QStringLiteral(": ") + p;
            QPointer<QWidget> closing(opened);
            if (auto* d = qobject_cast<QDialog*>(opened))
                d->reject();
            else
                opened->close();
            (void)QTest::qWaitFor([&] { return !closing || !closing->isVisible(); });
        };
        const auto modal = [&](const QString& what, QAction* a) {
            QTimer::singleShot(0, this, [&, what] { walkOpened(what); });
            a->trigger();
        };
        const auto open = [&](const QString& what, QAction* a) {
            a->trigger();
            walkOpened(what);
        };
        open(QStringLiteral("sweep"), action("sweepAction"));
        open(QStringLiteral("cross-validation"), action("crossValidateAction"));
        open(QStringLiteral("learning-rate finder"), action("findLrAction"));
        modal(QStringLiteral("settings"), action("settingsAction"));
        modal(QStringLiteral("about and devices"), action("aboutAction"));
        modal(QStringLiteral("cluster script"), action("clusterAction"));
        open(QStringLiteral("user guide"), action("userGuideAction"));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        // The dialogs are gone (some deleted themselves): the main window still shows its focus.
        QApplication::processEvents();
        for (const QString& p : walkByTab(&w))
            QFAIL(qPrintable(QStringLiteral("after the dialogs: ") + p));
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir screens;
    const QString platform = offscreenPlatformWithScreen(screens.filePath(QStringLiteral("screens.json")), kScreen);
    if (platform.isEmpty())
        return 2;
    qputenv("QT_QPA_PLATFORM", platform.toUtf8());
    QApplication app(argc, argv);
    TestKeyboard test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_keyboard.moc"
