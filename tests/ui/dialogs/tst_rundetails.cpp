// A run's details: what was trained and how it went, notes and tags saved, missing checkpoints said.
#include "../MainWindowFixture.h"
#include "MainWindow.h"
#include "dialogs/RunDetailsDialog.h"
#include "entrena/store/RunStore.h"
#include "settings/LanguageManager.h"

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace entrena;
using namespace entrena::ui;
using entrena::test::childProcesses;
using entrena::test::smallRun;

class TestRunDetails : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;

private Q_SLOTS:
    // Regression: the summary showed little (name, status, ISO times, test accuracy).
    void runDetailsSummarySaysWhatWasTrainedAndHowItWent()
    {
        const QString db = dir_.filePath(QStringLiteral("summary.sqlite"));
        RunStore store(db.toStdString());
        const int64_t id = store.createRun("summarised", R"({"data": {"dataset": "fashion-mnist"}, "model": {"arch": "mlp"},
            "optimizer": {"name": "adam"}, "scheduler": {"name": "one_cycle"}})",
                                           "{}");
        EndEvent end;
        end.testAccuracy = 0.8812;
        end.bestValAccuracy = 0.8934;
        end.seconds = 42.5;
        end.samplesPerSec = 15937;
        store.finishRun(id, RunStatus::Finished, end, 0.3121);
        RunDetailsDialog dialog(store, id);
        QStringList texts;
        for (QLabel* l : dialog.findChildren<QLabel*>())
            texts << l->text();
        const QString all = texts.join(QLatin1Char('|'));
        QVERIFY2(all.contains(QStringLiteral("MLP on Fashion-MNIST, Adam, One-cycle")), qPrintable(all));
        const QLocale locale;
        for (const QString& figure :
             {locale.toString(88.12, 'f', 2) + QLatin1Char('%'), locale.toString(89.34, 'f', 2) + QLatin1Char('%'),
              locale.toString(0.3121, 'f', 4), locale.toString(42.5, 'f', 1) + QStringLiteral(" s")})
            QVERIFY2(all.contains(figure), qPrintable(figure + QStringLiteral(" missing in ") + all));
        QVERIFY2(!all.contains(QRegularExpression(QStringLiteral("\\d{4}-\\d\\d-\\d\\dT"))), qPrintable(all)); // no raw ISO time

        // Own data is named by its folder (issue 53: "CNN on Image folder" said which folder nowhere).
        const int64_t own = store.createRun("own", R"({"data": {"dataset": "image-folder", "path": "/photos/digits"},
            "model": {"arch": "cnn"}, "optimizer": {"name": "sgd"}, "scheduler": {"name": "constant"}})",
                                            "{}");
        RunDetailsDialog ownDialog(store, own);
        QStringList ownTexts;
        for (QLabel* l : ownDialog.findChildren<QLabel*>())
            ownTexts << l->text();
        QVERIFY2(ownTexts.join(QLatin1Char('|')).contains(QStringLiteral("CNN on Image folder “digits”")),
                 qPrintable(ownTexts.join(QLatin1Char('|'))));
    }

    void runDetailsSaveNotesAndTagsAndFlagMissingCheckpoints()
    {
        const QString db = dir_.filePath(QStringLiteral("details.sqlite"));
        RunStore store(db.toStdString());
        const int64_t id = store.createRun("detailed", R"({"seed": 1})", "{}");
        store.addCheckpoint(id, {10, 1, "/nonexistent/epoch-1.pt", 0.5, true, 100, ""});
        EndEvent end;
        store.finishRun(id, RunStatus::Stopped, end, {});
        RunDetailsDialog dialog(store, id);
        QCOMPARE(dialog.missingCheckpoints(), 1);
        dialog.findChild<QPlainTextEdit*>(QStringLiteral("notesEdit"))->setPlainText(QStringLiteral("try a lower rate"));
        dialog.findChild<QLineEdit*>(QStringLiteral("tagsEdit"))->setText(QStringLiteral("baseline, cnn"));
        dialog.accept();
        QCOMPARE(store.findRun(std::to_string(id))->notes, std::string("try a lower rate"));
        QCOMPARE(store.tags(id), (std::vector<std::string>{"baseline", "cnn"}));
    }

    // Issue 53, item 3: after its checkpoints were freed, Try it said "This run kept no checkpoint"
    // and the Checkpoints tab was empty without a word.
    void freedCheckpointsAreSaidToBeFreed()
    {
        const QString db = dir_.filePath(QStringLiteral("freed.sqlite"));
        RunStore store(db.toStdString());
        const int64_t id = store.createRun("freed", R"({"seed": 1})", "{}");
        const std::string file = store.runFolder(id) + "/epoch-1.pt";
        QVERIFY(QDir().mkpath(QString::fromStdString(store.runFolder(id))));
        QFile f(QString::fromStdString(file));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(3'000'000, 'w'));
        f.close();
        store.addCheckpoint(id, {10, 1, file, 0.5, true, 3'000'000, ""});
        store.finishRun(id, RunStatus::Finished, EndEvent{}, {});
        QVERIFY(!store.checkpointsFreed(id));
        QCOMPARE(store.freeCheckpoints(id), int64_t(3'000'000));
        const auto freed = store.checkpointsFreed(id);
        QVERIFY(freed);
        QCOMPARE(freed->bytes, int64_t(3'000'000));

        RunDetailsDialog dialog(store, id);
        auto* none = dialog.findChild<QLabel*>(QStringLiteral("noCheckpoints"));
        QVERIFY(none);
        const QString said = none->text();
        QVERIFY2(said.contains(QStringLiteral("were deleted on")) && said.contains(QLocale().formattedDataSize(3'000'000, 1, QLocale::DataSizeSIFormat)) &&
                     said.contains(QStringLiteral("evaluation stay")),
                 qPrintable(said));
        // A run that never kept one says that instead.
        const int64_t other = store.createRun("none kept", R"({"seed": 1})", "{}");
        store.finishRun(other, RunStatus::Finished, EndEvent{}, {});
        RunDetailsDialog plain(store, other);
        QCOMPARE(plain.findChild<QLabel*>(QStringLiteral("noCheckpoints"))->text(), QStringLiteral("This run kept no checkpoint."));
    }
};

QTEST_MAIN(TestRunDetails)

#include "tst_rundetails.moc"
