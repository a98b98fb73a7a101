// The fused SGD step against PyTorch's own SGD: the same weights and momentum buffers after real
// training steps on Fashion-MNIST, for every combination of its options, and checkpoints that either
// one reads; the layouts it fuses and those it leaves to SGD; and a rollback to a snapshot taken
// before the first step, which must forget the momentum made after it. Also each optimizer entry's
// own setters: its options on an optimizer that exists, and the momentum a one-cycle schedule cycles.
#include "data/Dataset.h"
#include "entrena/config/Registry.h"
#include "model/Model.h"
#include "optim/FusedSgd.h"
#include "optim/Optimizers.h"
#include "train/Snapshot.h"

#include <QtTest>
#include <sstream>

using namespace entrena;

namespace {

RunConfig config(const char* optimizer, const QByteArray& model)
{
    return RunConfig::fromJson(std::string(R"({"seed": 5, "data": {"path": ")" ENTRENA_FMNIST_DIR
                                           R"(", "batch_size": 64, "train_limit": 1280, "test_limit": 64},
        "model": )") + model.toStdString() +
                               R"(, "optimizer": )" + optimizer + "}");
}

/// The model as training builds it: channels-last weights for the convolutional ones.
Model build(const RunConfig& c, const DataSplits& data)
{
    torch::manual_seed(5);
    return Model::buildOn(torch::kCPU, c.model, data.channels(), data.height(), data.width(), data.classes);
}

/// `steps` steps of batch 64 on the data's first images.
void train(Model& model, torch::optim::Optimizer& optimizer, const DataSplits& data, int steps)
{
    for (int i = 0; i < steps; ++i) {
        const int64_t from = (i * 64) % data.trainY.size(0);
        optimizer.zero_grad();
        torch::nn::functional::cross_entropy(model.forward(data.trainX.range(from, from + 64)),
                                             data.trainY.slice(0, from, from + 64))
            .backward();
        optimizer.step();
    }
}

std::string serialized(torch::optim::Optimizer& optimizer)
{
    torch::serialize::OutputArchive archive;
    optimizer.save(archive);
    std::ostringstream out;
    archive.save_to(out);
    return out.str();
}

torch::Tensor buffer(torch::optim::Optimizer& optimizer, const torch::Tensor& p)
{
    const auto& state = *optimizer.state().at(c10::guts::to_string(p.unsafeGetTensorImpl()));
    return static_cast<const torch::optim::SGDParamState&>(state).momentum_buffer();
}

} // namespace

class TestOptimizers : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fusedSgdTakesPyTorchsSteps_data()
    {
        QTest::addColumn<QByteArray>("optimizer");
        QTest::addColumn<QByteArray>("model");
        const QByteArray mlp = R"({"arch": "mlp", "hidden": [64, 32]})";
        QTest::newRow("resnet, nesterov")
            << QByteArray(R"({"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": true, "weight_decay": 5e-4})")
            << QByteArray(R"({"arch": "resnet", "channels": [8, 16]})");
        QTest::newRow("cnn, momentum") << QByteArray(R"({"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": false})")
                                       << QByteArray(R"({"arch": "cnn", "channels": [8, 16]})");
        QTest::newRow("plain") << QByteArray(R"({"name": "sgd", "lr": 0.1, "momentum": 0, "nesterov": false})") << mlp;
        QTest::newRow("weight decay")
            << QByteArray(R"({"name": "sgd", "lr": 0.1, "momentum": 0, "nesterov": false, "weight_decay": 0.01})") << mlp;
        QTest::newRow("momentum") << QByteArray(R"({"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": false})") << mlp;
        QTest::newRow("dampening") << QByteArray(
                                          R"({"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": false, "dampening": 0.3})")
                                   << mlp;
        QTest::newRow("nesterov, decay")
            << QByteArray(R"({"name": "sgd", "lr": 0.05, "momentum": 0.9, "nesterov": true, "weight_decay": 5e-4})") << mlp;
    }

    void fusedSgdTakesPyTorchsSteps()
    {
        QFETCH(QByteArray, optimizer);
        QFETCH(QByteArray, model);
        const RunConfig c = config(optimizer.constData(), model);
        const DataSplits data = loadData(c.data, c.seed);
        Model fusedModel = build(c, data);
        Model plainModel = build(c, data);

        auto fused = makeOptimizer(c.optimizer, fusedModel.parameters());
        QVERIFY2(dynamic_cast<FusedSgd*>(fused.get()), "sgd is not the fused step");
        const auto& o = static_cast<const torch::optim::SGDOptions&>(fused->param_groups()[0].options());
        torch::optim::SGD plain(plainModel.parameters(), o);

        train(fusedModel, *fused, data, 30);
        train(plainModel, plain, data, 30);
        QVERIFY2(static_cast<FusedSgd&>(*fused).fuses(), "the step was not the one-pass update");

        const auto a = fusedModel.parameters(), b = plainModel.parameters();
        QCOMPARE(a.size(), b.size());
        double moved = 0;
        for (size_t i = 0; i < a.size(); ++i) {
            const double diff = (a[i] - b[i]).abs().max().item<double>();
            QVERIFY2(diff < 1e-5, qPrintable(QStringLiteral("parameter %1 differs by %2").arg(i).arg(diff)));
            moved = std::max(moved, diff);
        }
        // The steps moved the weights (the comparison is not of two untrained models).
        Model untrained = build(c, data);
        QVERIFY((untrained.parameters()[0] - a[0]).abs().max().item<double>() > 1e-3);

        // The momentum buffers are SGD's: a checkpoint of one loads into the other, and both go on alike.
        if (o.momentum() > 0) {
            std::istringstream in(serialized(*fused));
            torch::serialize::InputArchive archive;
            archive.load_from(in);
            torch::optim::SGD reader(plainModel.parameters(), o);
            reader.load(archive);
            for (size_t i = 0; i < a.size(); ++i)
                QVERIFY(torch::equal(buffer(reader, b[i]), buffer(*fused, a[i])));
        }
    }

    void otherTensorsTakeTheUnfusedStep()
    {
        // A double-precision parameter is not the fused loop's: SGD::step updates it.
        auto p = torch::ones({4}, torch::kFloat64).requires_grad_();
        FusedSgd sgd({p}, torch::optim::SGDOptions(0.5).momentum(0.9));
        p.mutable_grad() = torch::full({4}, 2.0, torch::kFloat64);
        sgd.step();
        QCOMPARE(p[0].item<double>(), 0.0);
    }

    // A checkpoint written before weights were channels-last holds a one-channel convolution's
    // momentum in NCHW order: for [8, 1, 3, 3] that is the same memory order (only the stride of
    // the size-one dimension differs), so it fuses; a two-channel one is not, and SGD takes it.
    void fusesABufferThatDiffersOnlyInASizeOneStride_data()
    {
        QTest::addColumn<int>("channels");
        QTest::addColumn<bool>("fused");
        QTest::newRow("one channel") << 1 << true;
        QTest::newRow("two channels") << 2 << false;
    }

    void fusesABufferThatDiffersOnlyInASizeOneStride()
    {
        QFETCH(int, channels);
        QFETCH(bool, fused);
        torch::manual_seed(3);
        const auto start = torch::randn({8, channels, 3, 3}).contiguous(torch::MemoryFormat::ChannelsLast);
        const auto grad = torch::randn({8, channels, 3, 3}).contiguous(torch::MemoryFormat::ChannelsLast);
        const auto momentum = torch::randn({8, channels, 3, 3}); // NCHW, as an old checkpoint has it
        const auto options = torch::optim::SGDOptions(0.1).momentum(0.9).nesterov(true).weight_decay(1e-3);
        auto a = start.clone(torch::MemoryFormat::ChannelsLast).requires_grad_(), b = start.clone().requires_grad_();
        FusedSgd fusedSgd({a}, options);
        torch::optim::SGD sgd({b}, options);
        for (auto* o : {static_cast<torch::optim::Optimizer*>(&fusedSgd), static_cast<torch::optim::Optimizer*>(&sgd)}) {
            auto& p = o->param_groups()[0].params()[0];
            auto state = std::make_unique<torch::optim::SGDParamState>();
            state->momentum_buffer(momentum.clone());
            o->state()[c10::guts::to_string(p.unsafeGetTensorImpl())] = std::move(state);
            p.mutable_grad() = grad.clone(torch::MemoryFormat::Preserve);
        }
        QCOMPARE(fusedSgd.fuses(), fused);
        fusedSgd.step();
        sgd.step();
        QVERIFY(torch::allclose(a, b, 1e-6, 1e-6));
        QVERIFY(torch::allclose(buffer(fusedSgd, a), buffer(sgd, b), 1e-6, 1e-6));
    }

    // The closure makes the gradients, so the check of their layout must come after it: here it makes
    // a transposed (non-contiguous) gradient that only SGD's step handles.
    void aClosuresGradientsAreCheckedBeforeTheFusedStep()
    {
        torch::manual_seed(4);
        const auto start = torch::randn({4, 3});
        const auto grad = torch::randn({3, 4});
        auto a = start.clone().requires_grad_(), b = start.clone().requires_grad_();
        const auto options = torch::optim::SGDOptions(0.1).momentum(0.9);
        FusedSgd fusedSgd({a}, options);
        torch::optim::SGD sgd({b}, options);
        const auto closureFor = [&](torch::Tensor& p) {
            return [&p, &grad] {
                p.mutable_grad() = grad.clone().t(); // strides (1, 4): not the parameter's
                return torch::zeros({});
            };
        };
        for (int i = 0; i < 3; ++i) {
            fusedSgd.step(closureFor(a));
            sgd.step(closureFor(b));
        }
        QVERIFY(torch::allclose(a, b, 1e-6, 1e-6));
    }

    // The divergence guard rolls back to a snapshot; one taken before the first step has no momentum,
    // and the momentum of the steps after it must not survive the rollback (it did: load() keeps
    // state the archive lacks). Training after the rollback must be training from the start.
    void aRollbackToBeforeTheFirstStepForgetsTheMomentumSince()
    {
        const RunConfig c = config(R"({"name": "sgd", "lr": 0.05, "momentum": 0.9})", R"({"arch": "mlp", "hidden": [32]})");
        const DataSplits data = loadData(c.data, c.seed);
        Model rolled = build(c, data), fresh = build(c, data);
        auto first = makeOptimizer(c.optimizer, rolled.parameters());
        auto second = makeOptimizer(c.optimizer, fresh.parameters());
        Snapshot before;
        before.take(rolled, *first);
        train(rolled, *first, data, 3);
        QVERIFY(!first->state().empty());
        before.restore(rolled, *first, torch::kCPU);
        QVERIFY2(first->state().empty(), "the momentum made after the snapshot survived the rollback");
        train(rolled, *first, data, 3);
        train(fresh, *second, data, 3);
        const auto a = rolled.parameters(), b = fresh.parameters();
        for (size_t i = 0; i < a.size(); ++i)
            QVERIFY(torch::equal(a[i], b[i]));
    }

    // After a checkpoint's state is loaded the configuration's values hold: each entry sets all
    // its own options (not the rate) on an optimizer that exists, as if it had been made with them.
    void everyEntrySetsItsOptionsOnAnOptimizerThatExists()
    {
        const std::vector<torch::Tensor> parameters = {torch::zeros({3, 2}, torch::requires_grad())};
        for (const OptimizerEntry& entry : optimizerRegistry()) {
            OptimizerSpec before;
            before.kind = entry.kind;
            if (entry.defaults)
                entry.defaults(before);
            OptimizerSpec after = before;
            after.weightDecay = 0.0123;
            after.momentum = 0.7;
            after.dampening = 0.0;
            after.beta1 = 0.8;
            after.beta2 = 0.95;
            after.eps = 1e-6;
            after.alpha = 0.9;
            after.centered = true;
            auto made = makeOptimizer(before, parameters);
            const auto wanted = makeOptimizer(after, parameters);
            QVERIFY2(serialized(*made) != serialized(*wanted), entry.name);
            applyOptimizerOptions(*made, after);
            QVERIFY2(serialized(*made) == serialized(*wanted), entry.name);

            // The momentum a schedule cycles: SGD's and RMSprop's momentum, Adam's beta1.
            OptimizerSpec cycled = after;
            (hasKey(entry.keys, "momentum") ? cycled.momentum : cycled.beta1) = 0.42;
            setMomentum(*made, entry.kind, 0.42);
            QVERIFY2(serialized(*made) == serialized(*makeOptimizer(cycled, parameters)), entry.name);
        }
    }

    // A one-cycle schedule needs a momentum to cycle: SGD has none without momentum > 0.
    void onlySgdWithoutMomentumHasNoneToCycle()
    {
        for (const OptimizerEntry& entry : optimizerRegistry()) {
            OptimizerSpec s;
            s.kind = entry.kind;
            s.momentum = 0.0;
            QCOMPARE(entry.cyclesMomentum(s), entry.kind != OptimizerKind::Sgd);
            s.momentum = 0.9;
            QVERIFY(entry.cyclesMomentum(s));
        }
    }
};

QTEST_GUILESS_MAIN(TestOptimizers)
#include "tst_optimizers.moc"
