#pragma once
// "Try it": a finished run's model on the user's own inputs (docs/predict.md). Image models take
// files chosen or dropped, and show each one as the model sees it with its most probable classes;
// table models take a row typed or pasted. The work (loading the checkpoint, decoding, the forward
// pass) runs off the GUI thread, through the bridge's job runner.

#include "entrena/export/Predict.h"
#include "entrena/store/RunStore.h"

#include <QImage>
#include <QMap>
#include <QWidget>
#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QStackedWidget;

namespace entrena::ui {

class ProbabilityBars;

class TryModelTab : public QWidget {
    Q_OBJECT
public:
    TryModelTab(RunStore& store, int64_t runId, QWidget* parent = nullptr);

    /// Classifies image files (or folders of them), as choosing or dropping them does.
    void tryFiles(const QStringList& files);
    /// Classifies one table row, as typing it and pressing Enter does.
    void tryRow(const QString& row);

    bool isReady() const { return predictor_ != nullptr; }
    ProbabilityBars* bars() const { return bars_; }
    /// The selected input as the model sees it (images).
    QLabel* modelView() const { return modelView_; }
    QLabel* status() const { return status_; }
    QListWidget* files() const { return files_; }
    /// What to say of a run without checkpoints: when they were freed and how much, with what still
    /// works, or `otherwise` when they never were.
    static QString freedText(RunStore& store, int64_t runId, const QString& otherwise);
    /// Where a chooser for this run starts when the person chose no folder before: the run's data
    /// folder (with `test`, its test/ where there is one), else the home folder.
    static QString dataFolder(RunStore& store, int64_t runId, bool test = true);

Q_SIGNALS:
    /// The chosen checkpoint is loaded (or could not be: status() says why).
    void loaded(bool ok);
    /// Results for the inputs last given are shown.
    void answered();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    struct Answer {
        QString error;
        QList<RankedClass> top;
        QImage view; ///< images: as the model saw it
    };
    /// What a job hands back (the GUI thread shows it).
    struct Answers {
        std::vector<std::pair<std::string, Answer>> all;
        QString error;
    };
    struct RowAnswer {
        QList<RankedClass> top;
        QString error;
    };

    QWidget* imagePage();
    QWidget* tablePage();
    void load();
    void showInput(const ModelInputSpec& input);
    void chooseFiles();
    void listAnswers(const Answers& out);
    void showAnswer(const QString& file);
    void showBars(const QList<RankedClass>& top);

    RunStore& store_;
    int64_t runId_;
    std::vector<CheckpointRecord> checkpoints_; ///< the combo's entries: best (when there is one), latest
    std::shared_ptr<const Predictor> predictor_;
    /// Counts loads and typed rows: an answer for another checkpoint, or for a row since replaced, is dropped.
    quint64 loadGeneration_ = 0;
    quint64 askGeneration_ = 0;
    QMap<QString, Answer> answers_;

    QComboBox* checkpoint_;
    QLabel* checkpointLabel_;
    QLabel* about_;
    QStackedWidget* pages_;
    QPushButton* choose_;
    QLabel* dropHint_;
    QListWidget* files_;
    QLabel* original_;
    QLabel* modelView_;
    QLabel* modelViewCaption_;
    QLabel* columns_;
    QLineEdit* row_;
    QPushButton* classify_;
    ProbabilityBars* bars_;
    QLabel* status_;
};

} // namespace entrena::ui
