// A run's details: what was trained and how it went, notes and tags saved, missing checkpoints said.
#include "../MainWindowFixture.h"
#include "MainWindow.h"
#include "dialogs/RunDetailsDialog.h"
#include "entrena/store/RunStore.h"
#include "settings/LanguageManager.h"

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
};

QTEST_MAIN(TestRunDetails)

#include "tst_rundetails.moc"
