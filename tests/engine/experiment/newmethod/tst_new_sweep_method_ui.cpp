// The sweep method of HaltonMethod.cpp in the workbench's sweep dialog, which names no method: its
// choice, its own setting's row (from the setting's description), and the settings the dialog hands
// to the sweep, with nothing in ui/ changed.
#include "entrena/experiment/Sweep.h"
#include "experiment/SweepDialog.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

using namespace entrena;
using entrena::ui::SweepDialog;

class TestNewSweepMethodUi : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void theDialogOffersItAndItsSetting()
    {
        const RunConfig base = RunConfig::fromJson(R"({"data": {"dataset": "synthetic"}, "model": {"arch": "mlp"}})");
        SweepDialog d(base, dir_.filePath(QStringLiteral("ui.sqlite")), QString());
        d.show();
        auto* method = d.findChild<QComboBox*>(QStringLiteral("sweepMethod"));
        QVERIFY(method);
        const int halton = method->findData(QStringLiteral("halton"));
        QVERIFY(halton >= 0);
        QCOMPARE(method->itemText(halton), QStringLiteral("Halton (quasi-random)"));

        auto* skip = d.findChild<QSpinBox*>(QStringLiteral("sweep.skip"));
        QVERIFY(skip);
        QCOMPARE(skip->value(), 1);  // the entry's default
        QVERIFY(!skip->isVisible()); // another method is chosen
        method->setCurrentIndex(halton);
        QVERIFY(skip->isVisible());
        auto* form = qobject_cast<QFormLayout*>(skip->parentWidget()->layout());
        QVERIFY(form);
        auto* label = qobject_cast<QLabel*>(form->labelForField(skip));
        QVERIFY(label);
        QCOMPARE(label->text(), QStringLiteral("First point:"));

        skip->setValue(5);
        const SweepSettings s = d.settings();
        QCOMPARE(s.method, std::string("halton"));
        QCOMPARE(std::get<int64_t>(s.param("skip")), int64_t(5));
    }
};

QTEST_MAIN(TestNewSweepMethodUi)
#include "tst_new_sweep_method_ui.moc"
