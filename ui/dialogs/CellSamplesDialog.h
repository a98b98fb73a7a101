#pragma once
// A confusion-matrix cell opened (docs/evaluation.md, "From a cell to its samples"): every sample
// of one (true class, predicted class) pair, most confident first, as thumbnails for image data or
// as rows for a table, each with its original file or line and a way to open it. The run's split
// is loaded again and classified by its last weights off the GUI thread (entrena::SplitReview);
// the owner keeps that review, so the next cell opens at once.

#include "entrena/export/SplitReview.h"
#include "entrena/store/RunStore.h"

#include <QDialog>
#include <QPointer>
#include <memory>

class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace entrena::app {
class Job;
}

namespace entrena::ui {

class CellSamplesDialog : public QDialog {
    Q_OBJECT
public:
    /// `review`: the run's review when it was loaded before (null: loaded now). `select`: the
    /// split's sample to select (a wrong example's index; −1: the most confident).
    CellSamplesDialog(RunStore& store, int64_t runId, std::shared_ptr<const SplitReview> review, int trueClass, int predicted,
                      int64_t select = -1, QWidget* parent = nullptr);
    /// Stops the loading, if it still runs: nothing is classified for a closed window.
    ~CellSamplesDialog() override;

    /// The samples listed, most confident first (empty until loaded).
    const std::vector<ReviewedSample>& samples() const { return samples_; }
    QListWidget* pictures() const { return pictures_; }
    QTableWidget* rows() const { return rows_; }
    QLabel* heading() const { return heading_; }
    /// The selected sample's file (images) or table (rows); "" when it has none.
    QString selectedFile() const;
    /// Opens the selected sample (its file, or the table it is a line of) in the desktop's program.
    void openSelected();

    /// What Open or Copy last did ("Copied …", or that nothing opens the file here).
    QLabel* status() const { return status_; }

Q_SIGNALS:
    /// The samples are shown (ok) or could not be (heading() says why).
    void loaded(bool ok);
    /// The run's review was loaded: keep it for the next cell.
    void reviewReady(std::shared_ptr<const SplitReview> review);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    struct Content;
    void setUpViews();
    void setUpActions();
    void layOut();
    /// Classifies the split again (unless `review` is given) and lists the cell's samples, off the GUI thread.
    void startLoading(const std::string& db, int64_t runId, std::shared_ptr<const SplitReview> review, int trueClass,
                      int predicted);
    void fill(const Content& content);
    /// The window's title, the heading and the note on how the samples were classified.
    void describe(const SplitReview& review);
    void fillRows(const Content& content, int selectRow);
    void fillPictures(const Content& content, int selectRow);
    QString className(int k) const;
    QString splitName() const;
    int selectedRow() const;
    void openUrl(const QString& path);
    static QString percent(double share);
    void selectionChanged();

    QPointer<app::Job> job_;
    int64_t runId_;
    int trueClass_, predicted_;
    int64_t select_;
    std::shared_ptr<const SplitReview> review_; ///< once loaded
    std::vector<ReviewedSample> samples_;
    QString tableFile_;
    QLabel* heading_;
    QLabel* note_;
    QLabel* status_; ///< what Open or Copy did
    QStackedWidget* pages_;
    QListWidget* pictures_;
    QTableWidget* rows_;
    QPushButton* open_;
    QPushButton* showFolder_;
    QPushButton* copy_;
};

} // namespace entrena::ui
