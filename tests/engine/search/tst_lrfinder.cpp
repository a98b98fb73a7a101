// The learning-rate range test: the suggestion rule on scripted curves (an early spike, a late
// one, noise), the model and optimizer restored exactly, a sensible rate for the default CNN on
// real data, and `entrena-cli lr-find`.
#include "data/Dataset.h"
#include "entrena/search/LrFinder.h"
#include "model/Model.h"
#include "optim/Optimizers.h"
#include "search/LrRangeTest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <sstream>

using namespace entrena;

namespace {

// A clean range-test curve: flat at 2.3 until 1e-3, falling log-linearly to 0.4 at 0.3, then
// exploding. Its descent's middle (on log lr) is ~0.017.
std::vector<double> sweep(int n = 100)
{
    std::vector<double> lrs(std::size_t(n), 0);
    for (int i = 0; i < n; ++i)
        lrs[std::size_t(i)] = 1e-6 * std::pow(1e7, double(i) / (n - 1));
    return lrs;
}

double cleanLoss(double lr)
{
    const double a = std::log10(1e-3), b = std::log10(0.3), x = std::log10(lr);
    if (x <= a)
        return 2.3;
    if (x <= b)
        return 2.3 - 1.9 * (x - a) / (b - a);
    return 0.4 + 20 * (x - b);
}

std::string serialized(torch::optim::Optimizer& optimizer)
{
    torch::serialize::OutputArchive archive;
    optimizer.save(archive);
    std::ostringstream out;
    archive.save_to(out);
    return out.str();
}

RunConfig cnnConfig()
{
    return RunConfig::fromJson(R"({"name": "lr", "seed": 1,
        "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "batch_size": 64, "train_limit": 20000, "test_limit": 1000},
        "model": {"arch": "cnn"}, "optimizer": {"name": "sgd", "lr": 0.1, "momentum": 0.9, "nesterov": true}})");
}

} // namespace

class TestLrFinder : public QObject {
    Q_OBJECT
private slots:
    void suggestionSitsInTheDescentOfACleanCurve()
    {
        const auto lrs = sweep();
        std::vector<double> loss;
        for (double lr : lrs)
            loss.push_back(cleanLoss(lr));
        const LrSuggestion s = suggestLearningRate(lrs, smoothLosses(loss, 0.9));
        QCOMPARE(QString::fromStdString(s.rule), QStringLiteral("valley"));
        QVERIFY2(s.suggestedLr > 0.005 && s.suggestedLr < 0.06, qPrintable(QString::number(s.suggestedLr)));
        QVERIFY(s.valleyBegin < s.index && s.index < s.valleyEnd);
    }

    void suggestionIgnoresSpikesAndNoise_data()
    {
        QTest::addColumn<int>("spikeAt");
        QTest::addColumn<double>("spike");
        QTest::addColumn<double>("noise");
        QTest::newRow("early spike") << 5 << 12.0 << 0.0;
        QTest::newRow("early spike, noisy") << 8 << 12.0 << 0.15;
        QTest::newRow("spike after the minimum") << 90 << 30.0 << 0.0;
        QTest::newRow("noise only") << -1 << 0.0 << 0.2;
    }

    void suggestionIgnoresSpikesAndNoise()
    {
        QFETCH(int, spikeAt);
        QFETCH(double, spike);
        QFETCH(double, noise);
        const auto lrs = sweep();
        std::vector<double> clean, loss;
        uint32_t state = 12345; // a fixed pseudo-random noise, the same on every machine
        for (std::size_t i = 0; i < lrs.size(); ++i) {
            state = state * 1664525u + 1013904223u;
            const double u = double(state >> 8) / double(1u << 24) - 0.5;
            clean.push_back(cleanLoss(lrs[i]));
            loss.push_back(clean.back() + noise * u + (int(i) == spikeAt ? spike : 0.0));
        }
        const LrSuggestion reference = suggestLearningRate(lrs, smoothLosses(clean, 0.98));
        const LrSuggestion s = suggestLearningRate(lrs, smoothLosses(loss, 0.98));
        // Not on the spike (the steep fall after an early spike is the classic trap), and where
        // the clean curve puts it, within a factor of 2.
        if (spikeAt >= 0)
            QVERIFY2(std::abs(s.index - spikeAt) > 10, qPrintable(QString::number(s.index)));
        QVERIFY2(s.suggestedLr > reference.suggestedLr / 2 && s.suggestedLr < reference.suggestedLr * 2,
                 qPrintable(QStringLiteral("%1 vs %2").arg(s.suggestedLr).arg(reference.suggestedLr)));
    }

    void tooShortASweepIsRefused()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, suggestLearningRate({1e-3, 1e-2}, {2.0, 1.0}));
    }

    void modelAndOptimizerAreRestoredExactly()
    {
        RunConfig c = RunConfig::fromJson(R"({"seed": 3, "data": {"path": ")" ENTRENA_FMNIST_DIR
                                          R"(", "batch_size": 64, "train_limit": 2000, "test_limit": 500},
            "model": {"arch": "mlp", "hidden": [32]}, "optimizer": {"name": "sgd", "lr": 0.05, "momentum": 0.9}})");
        torch::manual_seed(3);
        const DataSplits data = loadData(c.data, c.seed);
        Model model = Model::build(c.model, data.channels(), data.height(), data.width(), data.classes);
        auto optimizer = makeOptimizer(c.optimizer, model.parameters());
        // A few real steps first, so the optimizer has momentum to lose.
        for (int i = 0; i < 3; ++i) {
            optimizer->zero_grad();
            torch::nn::functional::cross_entropy(model.forward(data.trainX.range(i * 64, (i + 1) * 64)),
                                                 data.trainY.slice(0, i * 64, (i + 1) * 64))
                .backward();
            optimizer->step();
        }
        std::vector<torch::Tensor> before;
        for (const auto& [name, t] : model.namedTensors())
            before.push_back(t.detach().clone());
        const std::string optimizerBefore = serialized(*optimizer);

        StopToken stop;
        LrFinderOptions o;
        o.steps = 40;
        const LrFinderResult r = rangeTest(model, *optimizer, data, c, torch::kCPU, o, stop, {});
        QVERIFY(r.lrs.size() >= 5);

        const auto after = model.namedTensors();
        for (std::size_t i = 0; i < after.size(); ++i)
            QVERIFY2(torch::equal(after[i].second, before[i]), after[i].first.c_str());
        QVERIFY(serialized(*optimizer) == optimizerBefore);
        QCOMPARE(optimizer->param_groups()[0].options().get_lr(), 0.05);
    }

    void defaultCnnGetsAGoodRate()
    {
        // A good learning rate for this CNN with SGD (Nesterov, momentum 0.9), measured by training
        // one epoch at constant rates on this subset: 0.003 → 75.5%, 0.01 → 79.2%, 0.03 → 80.5%,
        // 0.1 → 81.7%, 0.3 → diverged (validation accuracy). 0.03 to 0.1 are good: 0.05 between.
        constexpr double known = 0.05;
        StopToken stop;
        const LrFinderResult r = findLearningRate(cnnConfig(), LrFinderOptions{}, stop);
        QVERIFY(r.diverged); // the sweep ran until the loss exploded
        // The curve shown follows the loss down (issue 29: the moving average stayed near 2.0 where the
        // loss had fallen to 1.0): its lowest point is near the loss's lowest (the third lowest, so
        // that one lucky batch does not count), not a quarter of the fall above it.
        std::vector<double> sorted = r.losses;
        std::sort(sorted.begin(), sorted.end());
        const double lowest = sorted.at(2);
        const double smoothedLowest = *std::min_element(r.smoothed.begin(), r.smoothed.end());
        const double fall = r.losses.front() - sorted.front();
        QVERIFY2(
            smoothedLowest - lowest < 0.25 * fall,
            qPrintable(QStringLiteral("smoothed lowest %1, loss lowest %2, fall %3").arg(smoothedLowest).arg(lowest).arg(fall)));
        const double lr = r.suggestion.suggestedLr;
        QVERIFY2(lr > known / 3 && lr < known * 3, qPrintable(QString::number(lr)));
    }

    void cliPrintsTheSweepAndTheSuggestion()
    {
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("mlp.json"));
        QFile f(config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": 5000}, "model": {"arch": "mlp"}})");
        f.close();
        QProcess p;
        p.start(QStringLiteral(ENTRENA_CLI), {QStringLiteral("lr-find"), QStringLiteral("--config"), config,
                                              QStringLiteral("--json"), QStringLiteral("--steps"), QStringLiteral("60")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QList<QByteArray> lines = p.readAllStandardOutput().trimmed().split('\n');
        QVERIFY(lines.size() >= 6);
        const QJsonObject step = QJsonDocument::fromJson(lines.first()).object();
        QCOMPARE(step.value(QStringLiteral("event")).toString(), QStringLiteral("lr_find_step"));
        QCOMPARE(step.value(QStringLiteral("lr")).toDouble(), 1e-6);
        const QJsonObject end = QJsonDocument::fromJson(lines.last()).object();
        QCOMPARE(end.value(QStringLiteral("event")).toString(), QStringLiteral("lr_find"));
        QCOMPARE(end.value(QStringLiteral("rule")).toString(), QStringLiteral("valley"));
        const double lr = end.value(QStringLiteral("suggested_lr")).toDouble();
        QVERIFY(lr > 1e-4 && lr < 1);
        QCOMPARE(end.value(QStringLiteral("lrs")).toArray().size(), end.value(QStringLiteral("smoothed")).toArray().size());

        p.start(QStringLiteral(ENTRENA_CLI),
                {QStringLiteral("lr-find"), QStringLiteral("--config"), config, QStringLiteral("--start-lr"), QStringLiteral("1"),
                 QStringLiteral("--end-lr"), QStringLiteral("0.1")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("--end-lr must be above --start-lr"));
    }
};

QTEST_MAIN(TestLrFinder)
#include "tst_lrfinder.moc"
