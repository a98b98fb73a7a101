// `entrena-cli export --out model.onnx`: for each built-in architecture, the file passes onnx.checker
// and OpenCV's DNN module (a runtime that is not Entrena's) gives Entrena's own probabilities, to
// 1e-4, on real images; what cannot be exported is refused with a message and no file.
#include "../../tools/CliProcess.h"
#include "../../tools/FashionFolder.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using fixtures::cli;
using fixtures::Result;
using fixtures::run;

class TestOnnx : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString db_, images_;

    QString path(const QString& name) const { return dir_.filePath(name); }

private slots:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        db_ = path(QStringLiteral("runs.sqlite"));
        images_ = path(QStringLiteral("clothes"));
        QVERIFY(fixtures::writeClothes(images_ + QStringLiteral("/train"), QStringLiteral("train"), 600));
        QVERIFY(fixtures::writeClothes(images_ + QStringLiteral("/test"), QStringLiteral("t10k"), 40));
    }

    void openCvGivesEntrenasProbabilities_data()
    {
        QTest::addColumn<QByteArray>("model");
        QTest::newRow("mlp") << QByteArray(R"({"arch": "mlp", "hidden": [32, 16]})");
        QTest::newRow("cnn") << QByteArray(R"({"arch": "cnn", "channels": [8, 16]})");
        QTest::newRow("resnet") << QByteArray(R"({"arch": "resnet", "channels": [8, 16], "blocks": 1})");
    }

    void openCvGivesEntrenasProbabilities()
    {
        QFETCH(QByteArray, model);
        const QString name = QString::fromLatin1(QTest::currentDataTag());
        QFile config(path(name + QStringLiteral(".json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("{\"name\": \"" + name.toUtf8() + "\", \"data\": {\"dataset\": \"image-folder\", \"path\": \"" +
                     images_.toUtf8() + "\", \"batch_size\": 64}, \"model\": " + model + ", \"train\": {\"epochs\": 1}}");
        config.close();
        const Result trained = cli({QStringLiteral("train"), QStringLiteral("--config"), config.fileName(),
                                    QStringLiteral("--db"), db_, QStringLiteral("--json")});
        QVERIFY2(trained.exitCode == 0, trained.err.constData());
        const QString runId = QString::number(
            QJsonDocument::fromJson(trained.out.split('\n').first()).object().value(QStringLiteral("run_id")).toInteger());

        const QString onnx = path(name + QStringLiteral(".onnx"));
        const Result exported = cli({QStringLiteral("export"), QStringLiteral("--run"), runId, QStringLiteral("--db"), db_,
                                     QStringLiteral("--checkpoint"), QStringLiteral("last"), QStringLiteral("--out"), onnx});
        QVERIFY2(exported.exitCode == 0, exported.err.constData());
        QVERIFY(exported.out.contains("(onnx"));
        QVERIFY(QFile::exists(onnx + QStringLiteral(".json")));

        const Result predicted = cli({QStringLiteral("predict"), QStringLiteral("--run"), runId, QStringLiteral("--db"), db_,
                                      QStringLiteral("--checkpoint"), QStringLiteral("last"), QStringLiteral("--top"),
                                      QStringLiteral("10"), QStringLiteral("--json"), QStringLiteral("--out"),
                                      path(name + QStringLiteral("-predictions.json")), images_ + QStringLiteral("/test")});
        QVERIFY2(predicted.exitCode == 0, predicted.err.constData());
        const Result checked =
            run(QStringLiteral("/usr/bin/python3"), {QStringLiteral(ENTRENA_SOURCE_DIR "/tests/tools/check_onnx.py"), onnx,
                                                     path(name + QStringLiteral("-predictions.json")), QStringLiteral("1e-4")});
        QVERIFY2(checked.exitCode == 0, (checked.out + checked.err).constData());
        QVERIFY2(checked.out.contains("40 images"), checked.out.constData());
    }

    void whatCannotBeExportedIsRefusedWithoutAFile()
    {
        // An unknown run: nothing to export, and no file.
        const Result r = cli({QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("999"), QStringLiteral("--db"),
                              db_, QStringLiteral("--checkpoint"), QStringLiteral("last"), QStringLiteral("--out"),
                              path(QStringLiteral("x.onnx"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFile::exists(path(QStringLiteral("x.onnx"))));
        // An unknown extension names the three it knows.
        const Result bad = cli({QStringLiteral("export"), QStringLiteral("--run"), QStringLiteral("1"), QStringLiteral("--db"),
                                db_, QStringLiteral("--checkpoint"), QStringLiteral("last"), QStringLiteral("--out"),
                                path(QStringLiteral("x.tflite"))});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(".onnx"), bad.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestOnnx)
#include "tst_onnx.moc"
