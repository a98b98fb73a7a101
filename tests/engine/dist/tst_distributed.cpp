// Data-parallel pieces inside one process: the DistributedSampler rule of the shards, the loader
// over them, the launcher environment (torchrun, Slurm, bad values), the gradient reducer's
// buckets between two ranks on two threads over real Gloo, and the cluster script.
#include "data/BatchLoader.h"
#include "dist/DistGroup.h"
#include "entrena/config/Config.h"
#include "entrena/dist/Distributed.h"
#include "entrena/dist/Launcher.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>
#include <set>
#include <thread>

using namespace entrena;

namespace {

std::vector<int64_t> values(const torch::Tensor& t)
{
    const auto c = t.to(torch::kInt64).contiguous();
    return {c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel()};
}

/// Sets the variables for the scope of one test, clearing every launcher variable first.
struct Env {
    explicit Env(std::initializer_list<std::pair<const char*, const char*>> vars)
    {
        clear();
        for (const auto& [k, v] : vars)
            setenv(k, v, 1);
    }
    ~Env() { clear(); }
    static void clear()
    {
        for (const char* name : {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
                                 "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_NTASKS_PER_NODE", "SLURM_JOB_NODELIST",
                                 "TORCHELASTIC_USE_AGENT_STORE", "TORCHELASTIC_RESTART_COUNT"})
            unsetenv(name);
    }
};

/// Both ranks' gradients for the same two-layer model on different inputs, averaged by a
/// GradReducer (ranks on two threads, Gloo over loopback) or computed here in one process.
struct TwoRanks {
    torch::nn::Sequential model[2];
    std::vector<torch::Tensor> inputs[2][2]; // [rank][micro-batch]

    TwoRanks()
    {
        for (int r = 0; r < 2; ++r) {
            torch::manual_seed(7);
            model[r] = torch::nn::Sequential(torch::nn::Linear(64, 512), torch::nn::ReLU(), torch::nn::Linear(512, 256),
                                             torch::nn::ReLU(), torch::nn::Linear(256, 10));
            for (int m = 0; m < 2; ++m) {
                torch::manual_seed(100 + 10 * r + m);
                inputs[r][m].push_back(torch::randn({8, 64}));
            }
        }
    }
    static std::vector<torch::Tensor> params(torch::nn::Sequential& s) { return s->parameters(); }
};

} // namespace

class TestDistributed : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void shardsPartitionTheEpoch()
    {
        const auto order = BatchLoader::epochOrder(1000, 5, 2);
        std::set<int64_t> seen;
        size_t total = 0;
        for (int r = 0; r < 4; ++r) {
            const auto mine = values(shardOrder(order, Shard{r, 4}));
            QCOMPARE(mine.size(), size_t(250));
            total += mine.size();
            seen.insert(mine.begin(), mine.end());
            // The rule itself: rank r takes positions r, r + 4, ...
            QCOMPARE(mine[1], values(order)[size_t(r + 4)]);
        }
        QCOMPARE(total, size_t(1000));       // no sample twice
        QCOMPARE(seen.size(), size_t(1000)); // every sample once
        // Same seed and epoch, same order on every rank; another epoch, another order.
        QVERIFY(torch::equal(order, BatchLoader::epochOrder(1000, 5, 2)));
        QVERIFY(!torch::equal(order, BatchLoader::epochOrder(1000, 5, 3)));
    }

    void unevenShardsArePaddedFromTheStart()
    {
        const auto order = BatchLoader::epochOrder(10, 1, 1);
        const auto a = values(shardOrder(order, Shard{0, 4})), b = values(shardOrder(order, Shard{3, 4}));
        QCOMPARE(a.size(), size_t(3)); // 10 padded to 12: 3 each
        QCOMPARE(b.size(), size_t(3));
        QCOMPARE(b[2], values(order)[1]); // position 11 is the order's second sample again
    }

    void loadersOfTwoRanksCoverTheSetOnce()
    {
        const int64_t n = 1000;
        const auto x = torch::arange(n, torch::kFloat32).view({n, 1, 1, 1});
        const auto y = torch::arange(n, torch::kInt64);
        std::multiset<int64_t> seen;
        int64_t batches[2] = {0, 0};
        for (int r = 0; r < 2; ++r) {
            BatchLoader loader(x, y, 64, 9, 1, 1, torch::kCPU, 0, {}, Shard{r, 2});
            while (auto b = loader.next()) {
                ++batches[r];
                for (int64_t v : values(b->y))
                    seen.insert(v);
            }
        }
        QCOMPARE(batches[0], batches[1]); // the ranks take the same number of steps
        QCOMPARE(seen.size(), size_t(n));
        QCOMPARE(std::set<int64_t>(seen.begin(), seen.end()).size(), size_t(n));
    }

    void torchrunEnvironment()
    {
        Env env({{"RANK", "3"},
                 {"WORLD_SIZE", "8"},
                 {"LOCAL_RANK", "1"},
                 {"LOCAL_WORLD_SIZE", "2"},
                 {"MASTER_ADDR", "node7"},
                 {"MASTER_PORT", "29123"}});
        const auto e = rankEnvFromEnvironment();
        QVERIFY(e.has_value());
        QCOMPARE(e->rank, 3);
        QCOMPARE(e->worldSize, 8);
        QCOMPARE(e->localRank, 1);
        QCOMPARE(e->localWorldSize, 2);
        QCOMPARE(QString::fromStdString(e->masterAddr), QStringLiteral("node7"));
        QCOMPARE(e->masterPort, 29123);
        QCOMPARE(QString::fromStdString(e->source), QStringLiteral("torchrun"));
        QVERIFY(e->distributed());
        QVERIFY(!e->agentStore);
        // torchrun's agent serving the store (its static rendezvous): every rank a client.
        setenv("TORCHELASTIC_USE_AGENT_STORE", "True", 1);
        setenv("TORCHELASTIC_RESTART_COUNT", "2", 1);
        const auto agent = rankEnvFromEnvironment();
        QVERIFY(agent->agentStore);
        QCOMPARE(agent->restartCount, 2);
    }

    void slurmEnvironment()
    {
        Env env({{"SLURM_PROCID", "5"},
                 {"SLURM_NTASKS", "6"},
                 {"SLURM_LOCALID", "2"},
                 {"SLURM_NTASKS_PER_NODE", "3(x2)"},
                 {"SLURM_JOB_NODELIST", "gpu01,gpu02"}});
        const auto e = rankEnvFromEnvironment();
        QVERIFY(e.has_value());
        QCOMPARE(e->rank, 5);
        QCOMPARE(e->worldSize, 6);
        QCOMPARE(e->localRank, 2);
        QCOMPARE(e->localWorldSize, 3);
        QCOMPARE(QString::fromStdString(e->masterAddr), QStringLiteral("gpu01"));
        QCOMPARE(QString::fromStdString(e->source), QStringLiteral("slurm"));
    }

    void noLauncherMeansOneProcess()
    {
        Env env({});
        QVERIFY(!rankEnvFromEnvironment().has_value());
    }

    void badLauncherValuesAreNamed_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("rank out of range") << QByteArray("RANK") << QByteArray("2") << QStringLiteral("RANK='2'");
        QTest::newRow("rank not a number") << QByteArray("RANK") << QByteArray("one") << QStringLiteral("RANK='one'");
        QTest::newRow("port") << QByteArray("MASTER_PORT") << QByteArray("70000") << QStringLiteral("MASTER_PORT='70000'");
    }
    void badLauncherValuesAreNamed()
    {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        QFETCH(QString, expected);
        Env env({{"RANK", "0"}, {"WORLD_SIZE", "2"}});
        setenv(name.constData(), value.constData(), 1);
        try {
            rankEnvFromEnvironment();
            QFAIL("accepted");
        } catch (const DistributedError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
        }
        Env missing({{"WORLD_SIZE", "2"}});
        QVERIFY_THROWS_EXCEPTION(DistributedError, rankEnvFromEnvironment());
    }

    void moreCudaRanksThanDevicesIsRefused()
    {
        RunConfig c;
        c.devices.type = DeviceType::Cuda;
        c.devices.ids = {0};
        try {
            checkDevicesForRanks(c, 2);
            QFAIL("accepted");
        } catch (const DistributedError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("names only 1 device")), e.what());
        }
        c.devices.type = DeviceType::Cpu;
        c.devices.ids.clear();
        checkDevicesForRanks(c, 8); // CPU ranks share the cores
    }

    void configFingerprintFollowsTheConfiguration()
    {
        RunConfig a, b;
        QCOMPARE(configHash(a), configHash(b));
        b.seed = 2;
        QVERIFY(configHash(a) != configHash(b));
        QCOMPARE(configHash(a).size(), size_t(16));
    }

    void rankFingerprintFollowsWhatThePathVariablesMean()
    {
        const RunConfig c;
        const auto with = [&c](const char* paths, const char* fused) {
            if (paths)
                setenv("ENTRENA_PATHS", paths, 1);
            if (fused)
                setenv("ENTRENA_FUSED", fused, 1);
            const std::string f = rankFingerprint(c);
            unsetenv("ENTRENA_PATHS");
            unsetenv("ENTRENA_FUSED");
            return f;
        };
        const std::string plain = with(nullptr, nullptr);
        QVERIFY(plain.rfind(configHash(c) + "-", 0) == 0);
        QCOMPARE(with(nullptr, "1"), plain); // the default, spelt out
        QCOMPARE(with(" mlp_step=aten ,fused_sgd=entrena", nullptr), with("fused_sgd=entrena,mlp_step=aten", nullptr));
        QVERIFY(with("mlp_step=aten", nullptr) != plain);
        QVERIFY(with("mlp_step=aten", nullptr) != with("mlp_step=entrena", nullptr));
        QVERIFY(with("mlp_step=aten", nullptr) != with("fused_sgd=aten", nullptr));
        QVERIFY(with(nullptr, "0") != plain);
        QVERIFY(with("not a setting", nullptr) != with("nor this", nullptr)); // compared as written
    }

    // The reducer between two ranks (threads) over Gloo: its averages equal the mean of the two
    // ranks' gradients computed alone, with several buckets and with accumulation.
    void reducerAveragesGradientsInBuckets()
    {
        TwoRanks alone, together;
        // Alone: each rank's accumulated gradient (both micro-batches), then their mean.
        std::vector<torch::Tensor> expected;
        for (int r = 0; r < 2; ++r)
            for (int m = 0; m < 2; ++m)
                alone.model[r]->forward(alone.inputs[r][m][0]).square().mean().backward();
        for (size_t k = 0; k < alone.model[0]->parameters().size(); ++k)
            expected.push_back((alone.model[0]->parameters()[k].grad() + alone.model[1]->parameters()[k].grad()) / 2);

        const int port = freeLocalPort();
        size_t buckets[2] = {0, 0};
        double busy[2] = {0, 0};
        std::string errors[2];
        auto rank = [&](int r) {
            try {
                RankEnv env;
                env.rank = r;
                env.worldSize = 2;
                env.masterPort = port;
                auto group = DistGroup::join(env, "same", torch::kCPU, std::chrono::seconds(30));
                // 64 KiB buckets: the 512x256 layer (512 KiB) gets one of its own, and so on.
                GradReducer reducer(*group, together.model[r]->parameters(), 64 * 1024);
                buckets[r] = reducer.buckets();
                together.model[r]->forward(together.inputs[r][0][0]).square().mean().backward(); // accumulates only
                reducer.arm();
                together.model[r]->forward(together.inputs[r][1][0]).square().mean().backward();
                reducer.finish();
                busy[r] = reducer.takeBusySeconds();
            } catch (const std::exception& e) {
                errors[r] = e.what();
            }
        };
        std::thread t0(rank, 0), t1(rank, 1);
        t0.join();
        t1.join();
        QVERIFY2(errors[0].empty() && errors[1].empty(), (errors[0] + errors[1]).c_str());
        QVERIFY2(buckets[0] >= 3, "a small bucket size makes several buckets");
        QCOMPARE(buckets[0], buckets[1]);
        QVERIFY(busy[0] > 0);
        for (int r = 0; r < 2; ++r) {
            const auto got = together.model[r]->parameters();
            for (size_t k = 0; k < got.size(); ++k) {
                const double diff = (got[k].grad() - expected[k]).abs().max().item<double>();
                QVERIFY2(diff < 1e-6, qPrintable(QStringLiteral("rank %1 parameter %2 differs by %3").arg(r).arg(k).arg(diff)));
            }
        }
    }

    void clusterScriptRunsTorchrunUnderSlurm()
    {
        const ClusterLaunch l = clusterLaunch("/home/me/my run.json", 2, 4, true, "fmnist");
        const QString line = QString::fromStdString(l.torchrun), script = QString::fromStdString(l.sbatch);
        QVERIFY(line.startsWith(QStringLiteral("torchrun --nnodes=2 --nproc_per_node=4 ")));
        QVERIFY(line.contains(QStringLiteral("--no_python entrena-cli train --config '/home/me/my run.json'")));
        QVERIFY(script.startsWith(QStringLiteral("#!/bin/bash\n")));
        QVERIFY(script.contains(QStringLiteral("#SBATCH --nodes=2\n")));
        QVERIFY(script.contains(QStringLiteral("#SBATCH --gpus-per-node=4\n")));
        QVERIFY(script.contains(QStringLiteral("srun torchrun --nnodes=\"$SLURM_NNODES\" --nproc_per_node=4")));
        // bash accepts it.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("job.sbatch"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(l.sbatch.c_str());
        f.close();
        QProcess bash;
        bash.start(QStringLiteral("bash"), {QStringLiteral("-n"), file});
        QVERIFY(bash.waitForFinished());
        QCOMPARE(bash.exitCode(), 0);
        QVERIFY(!QString::fromStdString(clusterLaunch("c.json", 1, 2, false).sbatch).contains(QStringLiteral("gpus")));
    }
};

QTEST_GUILESS_MAIN(TestDistributed)
#include "tst_distributed.moc"
