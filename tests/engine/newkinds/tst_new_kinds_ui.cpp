// The schedule, optimizer and architecture of this folder in the workbench, whose form and sweep
// dialog name none of them: each is a choice of the form, its keys are rows built from their
// descriptions (label, range, default), what the form holds is what the configuration gets, and the
// sweep dialog offers their keys.
#include "entrena/config/Registry.h"
#include "experiment/SweepKeys.h"
#include "panels/RunConfigPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QtTest>

using namespace entrena;
using entrena::ui::RunConfigPanel;

namespace {

QString labelOf(QWidget* field)
{
    for (QWidget* w = field->parentWidget(); w; w = w->parentWidget())
        if (auto* form = qobject_cast<QFormLayout*>(w->layout()))
            if (auto* label = qobject_cast<QLabel*>(form->labelForField(field)))
                return label->text();
    return {};
}

} // namespace

class TestNewKindsUi : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theFormBuildsTheirRowsFromTheirDescriptions()
    {
        RunConfigPanel panel;
        panel.resize(900, 2000);
        panel.show();
        RunConfig c = RunConfig::fromJson(R"({"model": {"arch": "logistic", "bias": false},
            "optimizer": {"name": "adagrad", "lr_decay": 0.01},
            "scheduler": {"name": "polynomial", "total_iters": 4, "power": 2.5}})");
        panel.setConfig(c);
        auto* bias = panel.findChild<QCheckBox*>(QStringLiteral("model.bias"));
        auto* decay = panel.findChild<QDoubleSpinBox*>(QStringLiteral("optimizer.lr_decay"));
        QVERIFY(bias && decay);
        QVERIFY(bias->isVisible() && decay->isVisible());
        QCOMPARE(bias->isChecked(), false);
        QCOMPARE(decay->value(), 0.01);
        QCOMPARE(labelOf(bias), QStringLiteral("Bias:"));
        QCOMPARE(labelOf(decay), QStringLiteral("Rate decay:"));
        QDoubleSpinBox* power = nullptr;
        for (auto* box : panel.findChildren<QDoubleSpinBox*>())
            if (box->isVisible() && labelOf(box) == QStringLiteral("Power:"))
                power = box;
        QVERIFY(power);
        QCOMPARE(power->value(), 2.5);
        QCOMPARE(power->maximum(), 10.0);

        // What the form holds is what the configuration gets.
        bias->setChecked(true);
        decay->setValue(0.02);
        power->setValue(1.5);
        const RunConfig out = panel.config();
        QCOMPARE(std::string(toString(out.model.arch)), std::string("logistic"));
        QCOMPARE(std::get<bool>(out.model.param("bias")), true);
        QCOMPARE(std::get<double>(out.optimizer.param("lr_decay")), 0.02);
        QCOMPARE(std::get<double>(out.scheduler.param("power")), 1.5);

        // Another architecture: the row goes.
        c.model.arch = ModelArch::Mlp;
        panel.setConfig(c);
        QVERIFY(!bias->isVisible());
    }

    void theSweepDialogOffersTheirKeys()
    {
        const RunConfig c = RunConfig::fromJson(R"({"model": {"arch": "logistic"}, "optimizer": {"name": "adagrad"},
            "scheduler": {"name": "polynomial"}})");
        QStringList keys;
        for (const ui::SweepKey& k : ui::sweepableKeys(c))
            keys << k.key;
        for (const char* key : {"scheduler.power", "scheduler.total_iters", "optimizer.lr_decay", "model.bias"})
            QVERIFY2(keys.contains(QString::fromLatin1(key)), qPrintable(keys.join(QLatin1Char(' '))));
    }
};

QTEST_MAIN(TestNewKindsUi)
#include "tst_new_kinds_ui.moc"
