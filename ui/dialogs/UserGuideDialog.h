#pragma once
// Help → User guide: the README and the documents beside it (the command line, the configuration's
// keys, experiments, export, the run store…), read offline from where the package installs them
// (/usr/share/doc/entrena) or, run from a build, from the source tree. Links between them follow,
// whichever of the two layouts holds them; links to the web open in the browser.

#include <QDialog>

class QListWidget;
class QTextBrowser;

namespace entrena::ui {

class UserGuideDialog : public QDialog {
    Q_OBJECT
public:
    explicit UserGuideDialog(QWidget* parent = nullptr);

    /// The folder the guide is read from ("" when no guide is installed).
    static QString guideFolder();
    /// The document shown now (a local file), or "".
    QString shownFile() const;
    /// Shows `file` (a path, or a name the guide has: "cli.md").
    void showDocument(const QString& file);

protected:
    void changeEvent(QEvent* event) override;

private:
    void follow(const QUrl& link);
    void retranslate();

    QListWidget* contents_;
    QTextBrowser* text_;
};

} // namespace entrena::ui
