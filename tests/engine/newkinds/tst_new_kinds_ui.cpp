// The schedule, optimizer, architecture and precision of this folder in the workbench, whose form
// and sweep dialog name none of them: each is a choice of the form, its keys are rows built from their
// descriptions (label, range, default; an object-valued key as its JSON text), what the form holds is
// what the configuration gets, and the sweep dialog offers their keys.
#include "entrena/config/Registry.h"
#include "experiment/SweepKeys.h"
#include "panels/RunConfigPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
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

        auto* init = panel.findChild<QLineEdit*>(QStringLiteral("model.init"));
        QVERIFY(init && init->isVisible());
        QCOMPARE(labelOf(init), QStringLiteral("Starting weights:"));
        QCOMPARE(init->text(), QStringLiteral(R"({"bias":0.0,"weight_std":0.01})"));
        auto* precision = panel.findChild<QComboBox*>(QStringLiteral("precisionCombo"));
        const int scaled = precision->findData(QStringLiteral("bf16_scaled"));
        QVERIFY(scaled >= 0);
        QCOMPARE(precision->itemText(scaled), QStringLiteral("bf16 (autocast, loss scaling)"));

        // What the form holds is what the configuration gets.
        init->setText(QStringLiteral(R"({"weight_std": 0.2})"));
        precision->setCurrentIndex(scaled);
        bias->setChecked(true);
        decay->setValue(0.02);
        power->setValue(1.5);
        const RunConfig out = panel.config();
        QCOMPARE(std::string(toString(out.model.arch)), std::string("logistic"));
        QCOMPARE(std::get<bool>(out.model.param("bias")), true);
        QCOMPARE(std::get<double>(out.optimizer.param("lr_decay")), 0.02);
        QCOMPARE(std::get<double>(out.scheduler.param("power")), 1.5);
        QCOMPARE(std::get<JsonText>(out.model.param("init")).text, std::string(R"({"weight_std":0.2})"));
        QCOMPARE(std::string(toString(out.train.precision)), std::string("bf16_scaled"));
        QCOMPARE(RunConfig::fromJson(out.toJson()).toJson(), out.toJson());

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
        // An object is no space to search (nor is a precision: it changes how a run computes, not
        // what it learns).
        QVERIFY(!keys.contains(QStringLiteral("model.init")));
        QVERIFY(!keys.contains(QStringLiteral("train.precision")));
    }
};

QTEST_MAIN(TestNewKindsUi)
#include "tst_new_kinds_ui.moc"
