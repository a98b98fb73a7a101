// Your own data in the GUI: the data preview (every class with its count and pictures, the
// warning for unbalanced classes, the engine's message for data it cannot read), the model
// summary following the data's shape, the image folder's own form rows, and the warnings a run
// gives while it trains (a banner above the charts; their kinds in words in run details). Image
// folders are generated here as PNGs.
#include "MainWindow.h"
#include "TrainingController.h"
#include "dialogs/DataPreviewDialog.h"
#include "dialogs/RunDetailsDialog.h"
#include "entrena/store/RunStore.h"
#include "form/DataShapeProbe.h"
#include "form/ModelSummaryLine.h"
#include "widgets/NoticeBanner.h"
#include "panels/RunConfigPanel.h"
#include "settings/LanguageManager.h"

#include <QAction>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace entrena;
using namespace entrena::ui;

namespace {

/// A folder of class folders, `counts[name]` PNGs of `size` pixels each, in colour or grey.
QString imageFolder(const QString& root, const QMap<QString, int>& counts, int size, bool colour)
{
    for (auto it = counts.begin(); it != counts.end(); ++it) {
        QDir(root).mkpath(it.key());
        for (int i = 0; i < it.value(); ++i) {
            QImage image(size, size, colour ? QImage::Format_RGB32 : QImage::Format_Grayscale8);
            image.fill(colour ? QColor::fromHsv((i * 37) % 360, 200, 200) : QColor(i * 9 % 256, i * 9 % 256, i * 9 % 256));
            image.save(QStringLiteral("%1/%2/%3.png").arg(root, it.key()).arg(i));
        }
    }
    return root;
}

RunConfig mlpOn(const QString& json)
{
    return RunConfig::fromJson(QStringLiteral(R"({"name": "own", "seed": 5, "data": %1,
        "model": {"arch": "mlp", "hidden": [256, 128]}, "scheduler": {"name": "constant"},
        "train": {"epochs": 1, "log_every": 5}})")
                                   .arg(json)
                                   .toStdString());
}

} // namespace

class TestOwnData : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    LanguageManager languages_;
    QString unbalanced_, colour32_;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        unbalanced_ =
            imageFolder(dir_.filePath(QStringLiteral("unbalanced")),
                        {{QStringLiteral("cats"), 20}, {QStringLiteral("dogs"), 12}, {QStringLiteral("owls"), 5}}, 12, false);
        colour32_ = imageFolder(dir_.filePath(QStringLiteral("colour32")),
                                {{QStringLiteral("red"), 3}, {QStringLiteral("blue"), 3}}, 32, true);
    }

    void previewListsEveryClassWithItsCountAndWarnsOfImbalance()
    {
        DataSpec spec;
        spec.dataset = DatasetKind::ImageFolder;
        spec.path = unbalanced_.toStdString();
        DataPreviewDialog dialog(spec);
        QSignalSpy ready(&dialog, &DataPreviewDialog::ready);
        QVERIFY2(!dialog.isReady(), "read off the GUI thread, not inside the constructor");
        QVERIFY(ready.wait(30000));
        QCOMPARE(dialog.classNames(), (QStringList{QStringLiteral("cats"), QStringLiteral("dogs"), QStringLiteral("owls")}));
        QCOMPARE(dialog.countTexts(), (QStringList{QStringLiteral("20"), QStringLiteral("12"), QStringLiteral("5")}));
        QCOMPARE(dialog.imagesShown(0), DataPreviewDialog::kPerClass);
        QCOMPARE(dialog.imagesShown(2), 5); // all it has
        QVERIFY(dialog.totalLabel()->isVisibleTo(&dialog));
        QVERIFY2(dialog.totalLabel()->text().contains(QStringLiteral("37")), qPrintable(dialog.totalLabel()->text()));
        // 20 cats against 5 owls: more than three times, so a warning, naming both.
        QVERIFY(dialog.imbalanceLabel()->isVisibleTo(&dialog));
        QVERIFY2(dialog.imbalanceLabel()->text().contains(QStringLiteral("owls")), qPrintable(dialog.imbalanceLabel()->text()));
        QVERIFY(!dialog.errorLabel()->isVisibleTo(&dialog));
        QVERIFY(!dialog.skippedLabel()->isVisibleTo(&dialog));
        // A balanced folder has no warning.
        spec.path = colour32_.toStdString();
        DataPreviewDialog balanced(spec);
        QSignalSpy balancedReady(&balanced, &DataPreviewDialog::ready);
        QVERIFY(balancedReady.wait(30000));
        QCOMPARE(balanced.classNames(), (QStringList{QStringLiteral("blue"), QStringLiteral("red")}));
        QVERIFY(!balanced.imbalanceLabel()->isVisibleTo(&balanced));
    }

    void previewOfDataItCannotReadShowsTheEnginesMessage()
    {
        DataSpec spec;
        spec.dataset = DatasetKind::ImageFolder;
        spec.path = dir_.filePath(QStringLiteral("no-such-folder")).toStdString();
        std::string engine;
        try {
            previewData(spec, 1, 1);
        } catch (const std::exception& e) {
            engine = e.what();
        }
        QVERIFY(!engine.empty());
        DataPreviewDialog dialog(spec);
        QSignalSpy ready(&dialog, &DataPreviewDialog::ready);
        QVERIFY(ready.wait(30000));
        QVERIFY(dialog.errorLabel()->isVisibleTo(&dialog));
        QCOMPARE(dialog.errorLabel()->text(), QString::fromStdString(engine));
        QVERIFY(dialog.classNames().isEmpty());
    }

    void previewOpensFromTheRunMenu()
    {
        MainWindow w(dir_.filePath(QStringLiteral("menu.sqlite")),
                     mlpOn(QStringLiteral(R"({"dataset": "image-folder", "path": "%1"})").arg(unbalanced_)), languages_);
        auto* action = w.findChild<QAction*>(QStringLiteral("previewDataAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_D));
        action->trigger();
        auto* dialog = w.findChild<DataPreviewDialog*>();
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isReady(), 30000);
        QCOMPARE(dialog->classNames().size(), 3);
        dialog->close();
    }

    void summaryFollowsTheDataShape()
    {
        RunConfigPanel panel;
        panel.setConfig(mlpOn(QStringLiteral(R"({"dataset": "fashion-mnist", "path": "/usr/share/datasets/fashion-mnist"})")));
        const QLocale locale;
        // 1×28×28 → 256 → 128 → 10: known without reading a file.
        QVERIFY2(panel.summaryText().contains(locale.toString(235146)), qPrintable(panel.summaryText()));
        DataShapeProbe* probe = panel.summary()->probe();
        const int before = probe->probesStarted();

        // Two colour classes of 32×32: 3072 → 256 → 128 → 2 = 819,842 parameters, once read.
        panel.setConfig(mlpOn(QStringLiteral(R"({"dataset": "image-folder", "path": "%1"})").arg(colour32_)));
        QVERIFY2(panel.summaryText().contains(QStringLiteral("Reading")), qPrintable(panel.summaryText()));
        QTRY_VERIFY2_WITH_TIMEOUT(panel.summaryText().contains(locale.toString(819842)), qPrintable(panel.summaryText()), 30000);
        QVERIFY2(panel.summaryText().contains(QStringLiteral("3×32×32")), qPrintable(panel.summaryText()));
        QCOMPARE(probe->probesStarted(), before + 1);

        // Back and forth: the shape is remembered, not read again.
        panel.setConfig(mlpOn(QStringLiteral(R"({"dataset": "fashion-mnist", "path": "/usr/share/datasets/fashion-mnist"})")));
        panel.setConfig(mlpOn(QStringLiteral(R"({"dataset": "image-folder", "path": "%1"})").arg(colour32_)));
        QVERIFY2(panel.summaryText().contains(locale.toString(819842)), qPrintable(panel.summaryText()));
        QTest::qWait(DataShapeProbe::kDebounceMs * 2);
        QCOMPARE(probe->probesStarted(), before + 1);

        // Data that cannot be read: said in the summary, no size, no message box.
        panel.setConfig(
            mlpOn(QStringLiteral(R"({"dataset": "image-folder", "path": "%1"})").arg(dir_.filePath(QStringLiteral("missing")))));
        QTRY_VERIFY2_WITH_TIMEOUT(panel.summaryText().contains(QStringLiteral("cannot be read")), qPrintable(panel.summaryText()),
                                  30000);
        QVERIFY(!panel.summaryText().contains(locale.toString(819842)));
        QVERIFY(!QApplication::activeModalWidget());
    }

    void imageFolderKeysAreRowsOfTheForm()
    {
        RunConfigPanel panel;
        panel.setConfig(mlpOn(QStringLiteral(R"({"dataset": "fashion-mnist"})")));
        auto* size = panel.findChild<QLineEdit*>(QStringLiteral("data.image_size"));
        auto* channels = panel.findChild<QSpinBox*>(QStringLiteral("data.channels"));
        QVERIFY(size && channels);
        QVERIFY(!size->isVisibleTo(&panel) && !channels->isVisibleTo(&panel));
        panel.setConfig(
            mlpOn(QStringLiteral(R"({"dataset": "image-folder", "path": "%1", "image_size": [24, 20], "channels": 1})")
                      .arg(colour32_)));
        QVERIFY(size->isVisibleTo(&panel) && channels->isVisibleTo(&panel));
        QCOMPARE(size->text(), QStringLiteral("24, 20"));
        QCOMPARE(channels->value(), 1);
        size->setText(QStringLiteral("32"));
        channels->setValue(3);
        const RunConfig c = panel.config();
        QCOMPARE(c.data.imageSize, (std::vector<int64_t>{32}));
        QCOMPARE(c.data.channels, 3);
        // The labels are the registry's, in the reader's language.
        const auto hasLabel = [&panel](const QString& text) {
            const auto labels = panel.findChildren<QLabel*>();
            return std::any_of(labels.begin(), labels.end(), [&](const QLabel* l) { return l->text() == text; });
        };
        QVERIFY(hasLabel(QStringLiteral("Image size:")) && hasLabel(QStringLiteral("Channels:")));
        languages_.apply(QStringLiteral("es"));
        QTRY_VERIFY(hasLabel(QStringLiteral("Tamaño de imagen:")) && hasLabel(QStringLiteral("Canales:")));
        languages_.apply(QStringLiteral("en"));
    }

    void notLearningShowsABannerAboveTheCharts()
    {
        // A rate of 1e-6 leaves the first epoch at chance: the engine says `not_learning`.
        MainWindow w(
            dir_.filePath(QStringLiteral("banner.sqlite")),
            mlpOn(QStringLiteral(R"({"dataset": "synthetic", "train_limit": 600, "test_limit": 200, "batch_size": 64})")),
            languages_);
        RunConfig c = w.configPanel()->config();
        c.optimizer.lr = 1e-6;
        w.configPanel()->setConfig(c);
        w.show();
        NoticeBanner* banner = w.noticeBanner();
        QVERIFY(!banner->isVisible());
        QSignalSpy notices(w.controller(), &app::TrainingController::notice);
        QVERIFY2(w.startTraining(), qPrintable(w.lastError()));
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), 120000);
        bool sent = false;
        for (const auto& args : notices)
            sent = sent || args[0].value<NoticeEvent>().kind == "not_learning";
        QVERIFY2(sent, "the engine reported not_learning");
        QVERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains(QStringLiteral("Not learning")) &&
                     banner->text().contains(QStringLiteral("lower learning rate")),
                 qPrintable(banner->text()));
        // In the reader's language, the engine's message kept.
        languages_.apply(QStringLiteral("es"));
        QTRY_VERIFY2(banner->text().contains(QStringLiteral("No aprende")), qPrintable(banner->text()));
        languages_.apply(QStringLiteral("en"));
        QTRY_VERIFY(banner->text().contains(QStringLiteral("Not learning")));
        // Dismissed, it goes; the next run starts without it.
        QTest::mouseClick(banner->dismissButton(), Qt::LeftButton);
        QVERIFY(!banner->isVisible());
        NoticeEvent files{"data_warning", 0, 1, "2 file(s) could not be read, e.g. /x/y.png"};
        Q_EMIT w.controller()->notice(files);
        QVERIFY(banner->isVisible());
        QVERIFY(banner->text().contains(QStringLiteral("/x/y.png")));
        NoticeEvent other{"checkpoint", 10, 1, "saved"};
        banner->clear();
        Q_EMIT w.controller()->notice(other);
        QVERIFY2(!banner->isVisible(), "only notices that need action");
    }

    void warningKindsReadAsWordsInRunDetails()
    {
        RunStore store(dir_.filePath(QStringLiteral("kinds.sqlite")).toStdString());
        const int64_t id = store.createRun("kinds", R"({"seed": 1})", "{}");
        store.addEvent(id, 0, "data_warning", "1 file(s) could not be read");
        store.addEvent(id, 20, "not_learning", "the model is not learning");
        store.flush();
        const auto kinds = [&] {
            RunDetailsDialog dialog(store, id);
            QStringList out;
            for (QTableWidget* t : dialog.findChildren<QTableWidget*>())
                if (t->columnCount() == 4 && t->rowCount() == 2 && t->horizontalHeaderItem(2))
                    for (int r = 0; r < 2; ++r)
                        out << t->item(r, 2)->text();
            return out;
        };
        QCOMPARE(kinds(), (QStringList{QStringLiteral("data warning"), QStringLiteral("not learning")}));
        languages_.apply(QStringLiteral("es"));
        QCOMPARE(kinds(), (QStringList{QStringLiteral("aviso sobre los datos"), QStringLiteral("no aprende")}));
        languages_.apply(QStringLiteral("en"));
    }
};

QTEST_MAIN(TestOwnData)
#include "tst_owndata.moc"
