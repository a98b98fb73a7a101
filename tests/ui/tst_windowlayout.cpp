// What the window keeps across sessions (geometry, splitters, the runs list's columns, the parts
// shown, the form), the View menu, and a name for every control that a screen reader announces.
#include "MainWindow.h"
#include "WindowLayout.h"
#include "panels/RunConfigPanel.h"
#include "panels/RunsPanel.h"
#include "settings/LanguageManager.h"
#include "settings/Settings.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QAction>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

using namespace entrena;
using namespace entrena::ui;

namespace {

RunConfig formConfig(double lr)
{
    RunConfig c = RunConfig::fromJson(R"({"name": "layout-run",
        "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": 1000, "batch_size": 64},
        "model": {"arch": "mlp"}, "scheduler": {"name": "constant"}, "train": {"epochs": 1}})");
    c.optimizer.lr = lr;
    return c;
}

} // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;

    QString db() const { return dir_.filePath(QStringLiteral("layout.sqlite")); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        qputenv("XDG_CONFIG_HOME", dir_.filePath(QStringLiteral("config")).toUtf8()); // settings of its own
        QSettings().clear();
    }

    void viewMenuHidesPartsAndTheNextSessionKeepsThat()
    {
        {
            MainWindow w(db(), formConfig(0.05), languages_);
            w.show();
            auto* form = w.findChild<QWidget*>(QStringLiteral("formSide"));
            QAction* showForm = w.findChild<QAction*>(QStringLiteral("showFormAction"));
            QAction* showRuns = w.findChild<QAction*>(QStringLiteral("showRunsAction"));
            QVERIFY(form && showForm && showRuns);
            QVERIFY(showForm->isChecked() && form->isVisible());
            QVERIFY(!showForm->shortcut().isEmpty() && !showRuns->shortcut().isEmpty());
            showForm->trigger();
            QVERIFY(!form->isVisible());
            showRuns->trigger();
            QVERIFY(!w.runs()->isVisible());
            QVERIFY(w.close());
        }
        {
            MainWindow again(db(), formConfig(0.05), languages_);
            again.show();
            QVERIFY(!again.findChild<QWidget*>(QStringLiteral("formSide"))->isVisible());
            QVERIFY(!again.runs()->isVisible());
            QVERIFY(!again.findChild<QAction*>(QStringLiteral("showFormAction"))->isChecked());
            // Reset layout brings back what a first start shows.
            again.findChild<QAction*>(QStringLiteral("resetLayoutAction"))->trigger();
            QVERIFY(again.findChild<QWidget*>(QStringLiteral("formSide"))->isVisible());
            QVERIFY(again.runs()->isVisible());
            QVERIFY(again.findChild<QAction*>(QStringLiteral("showRunsAction"))->isChecked());
            QVERIFY(again.close());
        }
    }

    void splittersColumnsAndFormAreRemembered()
    {
        QList<int> main, charts;
        int nameWidth = 0;
        {
            MainWindow w(db(), formConfig(0.0123), languages_);
            w.resize(1400, 900);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            auto* mainSplitter = w.findChild<QSplitter*>(QStringLiteral("mainSplitter"));
            auto* chartsSplitter = w.findChild<QSplitter*>(QStringLiteral("chartsSplitter"));
            QVERIFY(mainSplitter && chartsSplitter);
            const QList<int> m = mainSplitter->sizes(), c = chartsSplitter->sizes();
            mainSplitter->setSizes({m[0] + 60, m[1] - 60});
            chartsSplitter->setSizes({c[0] - 80, c[1] + 80});
            w.runs()->header()->resizeSection(1, 222);
            w.runs()->header()->moveSection(w.runs()->header()->visualIndex(1), 0); // the name first
            w.runs()->header()->setSectionsMovable(false); // as a layout saved by an older version says
            main = mainSplitter->sizes();
            charts = chartsSplitter->sizes();
            nameWidth = w.runs()->header()->sectionSize(1);
            QVERIFY(w.close());
        }
        MainWindow again(db(), formConfig(0.05), languages_);
        again.resize(1400, 900);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.findChild<QSplitter*>(QStringLiteral("mainSplitter"))->sizes(), main);
        QCOMPARE(again.findChild<QSplitter*>(QStringLiteral("chartsSplitter"))->sizes(), charts);
        QCOMPARE(again.runs()->header()->sectionSize(1), nameWidth);
        QCOMPARE(again.runs()->header()->logicalIndex(0), 1); // a dragged header stays where it was put
        QVERIFY(again.runs()->header()->sectionsMovable());
        // The form at quit is what the next start without --config loads (GuiMain).
        const auto form = WindowLayout::rememberedForm();
        QVERIFY(form);
        QCOMPARE(form->optimizer.lr, 0.0123);
        QCOMPARE(form->name, std::string("layout-run"));
        // A kept form that no longer is a valid configuration is not loaded.
        Settings::lastForm.set(QStringLiteral(R"({"optimizer": {"lr": -1}})"));
        QVERIFY(!WindowLayout::rememberedForm());
        Settings::lastForm.set(QStringLiteral("not json"));
        QVERIFY(!WindowLayout::rememberedForm());
    }

    // A screen reader announces a control by its accessible name: its text, the form label that
    // is its buddy, or the name set for it. Charts and lists have no text of their own.
    void everyControlHasAnAccessibleName()
    {
        MainWindow w(db(), formConfig(0.05), languages_);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QStringList unnamed;
        for (QWidget* widget : w.findChildren<QWidget*>()) {
            const bool control = qobject_cast<QLineEdit*>(widget) || qobject_cast<QComboBox*>(widget) ||
                                 qobject_cast<QAbstractSpinBox*>(widget) || qobject_cast<QSlider*>(widget) ||
                                 qobject_cast<QAbstractButton*>(widget) || qobject_cast<QCustomPlot*>(widget) ||
                                 (qobject_cast<QAbstractItemView*>(widget) && !qobject_cast<QHeaderView*>(widget));
            if (!control || !widget->isVisibleTo(&w) || !widget->focusPolicy())
                continue;
            // A spin box's line edit and a combo box's are announced as part of their control.
            if (qobject_cast<QLineEdit*>(widget) &&
                (qobject_cast<QAbstractSpinBox*>(widget->parentWidget()) || qobject_cast<QComboBox*>(widget->parentWidget())))
                continue;
            QAccessibleInterface* a = QAccessible::queryAccessibleInterface(widget);
            if (!a || a->text(QAccessible::Name).trimmed().isEmpty())
                unnamed << QStringLiteral("%1 '%2'").arg(QString::fromLatin1(widget->metaObject()->className()),
                                                         widget->objectName());
        }
        QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral(", "))));
    }
};

QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
