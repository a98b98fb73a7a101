// NVML is loaded at run time where NVIDIA's driver provides it. Without a GPU here, a stand-in
// library with fixed readings (tests/tools/fake_nvml.c) checks the loading and the reading.
#include "system/Nvml.h"

#include <QtTest>

using entrena::Nvml;

class TstNvml : public QObject {
    Q_OBJECT
private slots:
    void readsMemoryAndUtilizationFromTheLibrary()
    {
        const Nvml nvml(FAKE_NVML);
        QVERIFY2(nvml.available(), nvml.problem().c_str());
        const auto r = nvml.read(0);
        QCOMPARE(r.totalBytes, int64_t(8) << 30);
        QCOMPARE(r.usedBytes, int64_t(3) << 30);
        QCOMPARE(r.utilization, 73);
        const auto byBus = nvml.readByBusId("0000:3b:00.0");
        QCOMPARE(byBus.usedBytes, r.usedBytes);
        QCOMPARE(byBus.utilization, r.utilization);
    }

    void aDeviceTheLibraryDoesNotKnowReadsAsAbsent()
    {
        const Nvml nvml(FAKE_NVML);
        QVERIFY(nvml.available());
        QCOMPARE(nvml.read(1).usedBytes, int64_t(-1));
        QCOMPARE(nvml.read(-1).totalBytes, int64_t(-1));
        QCOMPARE(nvml.readByBusId("0000:af:00.0").utilization, -1);
    }

    void aMissingLibraryIsNotAnError()
    {
        const Nvml nvml("libentrena-no-such-nvml.so.1");
        QVERIFY(!nvml.available());
        QVERIFY2(nvml.problem().find("NVML not loaded") != std::string::npos, nvml.problem().c_str());
        QCOMPARE(nvml.read(0).usedBytes, int64_t(-1));
    }

    void aLibraryWithoutTheFunctionsIsRefused()
    {
        const Nvml nvml("libz.so.1"); // loads, but is not NVML
        QVERIFY(!nvml.available());
        QCOMPARE(QString::fromStdString(nvml.problem()), QStringLiteral("NVML lacks nvmlInit_v2"));
        QCOMPARE(nvml.read(0).utilization, -1);
    }

    void aFailedInitialisationLeavesItUnavailable()
    {
        qputenv("FAKE_NVML_INIT_FAILS", "1");
        const Nvml nvml(FAKE_NVML);
        qunsetenv("FAKE_NVML_INIT_FAILS");
        QVERIFY(!nvml.available());
        QCOMPARE(QString::fromStdString(nvml.problem()), QStringLiteral("nvmlInit failed with code 9"));
        QCOMPARE(nvml.read(0).totalBytes, int64_t(-1));
    }
};

QTEST_GUILESS_MAIN(TstNvml)
#include "tst_nvml.moc"
