#include "dialogs/UserGuideDialog.h"

#include "widgets/ScreenFit.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QListWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace entrena::ui {
namespace {

// The documents in the order a person reads them, with their titles.
struct Document {
    const char* file;
    const char* title;
};
const Document kDocuments[] = {
    {"README.md", QT_TRANSLATE_NOOP("entrena::ui::UserGuideDialog", "Entrena: what you are looking at")},
    {"configuration.md", QT_TRANSLATE_NOOP("entrena::ui::UserGuideDialog", "Every setting of a run")},
    {"experiments.md", QT_TRANSLATE_NOOP("entrena::ui::UserGuideDialog", "Sweeps, queues and cross-validation")},
    {"evaluation.md", QT_TRANSLATE_NOOP("entrena::ui::UserGuideDialog", "Evaluation: what the model gets wrong")},
    {"predict.md", QT_TRANSLATE_NOOP("entrena::ui::UserGuideDialog", "Using a trained model")},
    {"export.md", QT_TRANSLATE_NOOP("entrena::ui::UserGuideDialog", "Exporting weights")},
    {"run-store.md", QT_TRANSLATE_NOOP("entrena::ui::UserGuideDialog", "The run store and its files")},
    {"distributed.md", QT_TRANSLATE_NOOP("entrena::ui::UserGuideDialog", "Several devices and machines")},
    {"cli.md", QT_TRANSLATE_NOOP("entrena::ui::UserGuideDialog", "The command line (entrena-cli)")},
};

/// `name` in the guide: beside the README, or in its docs/ folder (the source tree's layout).
QString locate(const QString& folder, const QString& name)
{
    for (const QString& candidate : {QDir(folder).filePath(name), QDir(folder).filePath(QStringLiteral("docs/") + name)})
        if (QFileInfo::exists(candidate))
            return candidate;
    return {};
}

} // namespace

QString UserGuideDialog::guideFolder()
{
    const QString app = QCoreApplication::applicationDirPath();
    for (const QString& folder : {QDir(app).filePath(QStringLiteral("../share/doc/entrena")), QStringLiteral("/usr/share/doc/entrena"),
                                  QStringLiteral(ENTRENA_SOURCE_DOCS)})
        if (QFileInfo::exists(QDir(folder).filePath(QStringLiteral("README.md"))))
            return QDir::cleanPath(folder);
    return {};
}

UserGuideDialog::UserGuideDialog(QWidget* parent)
    : QDialog(parent)
    , contents_(new QListWidget(this))
    , text_(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("userGuide"));
    const QString folder = guideFolder();
    for (const Document& d : kDocuments)
        if (const QString file = locate(folder, QString::fromLatin1(d.file)); !file.isEmpty()) {
            auto* item = new QListWidgetItem(contents_);
            item->setData(Qt::UserRole, file);
            item->setData(Qt::UserRole + 1, QString::fromLatin1(d.title)); // English: translated in retranslate()
        }
    contents_->setMaximumWidth(260);
    text_->setTabChangesFocus(true); // Tab leaves the text, as everywhere else; the links are clicked
    text_->setOpenLinks(false); // followed here: the installed layout is flat, the source tree's is not
    connect(text_, &QTextBrowser::anchorClicked, this, &UserGuideDialog::follow);
    connect(contents_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            showDocument(contents_->item(row)->data(Qt::UserRole).toString());
    });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* pages = new QHBoxLayout;
    pages->addWidget(contents_);
    pages->addWidget(text_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(pages, 1);
    layout->addWidget(buttons);
    retranslate();
    if (contents_->count() > 0)
        contents_->setCurrentRow(0);
    else
        text_->setPlainText(tr("The user guide is not installed here. It is README.md and the docs/ folder of Entrena's "
                               "sources, and /usr/share/doc/entrena in its Debian package."));
    sizeToScreen(this, QSize(1000, 700));
}

QString UserGuideDialog::shownFile() const
{
    return text_->source().isLocalFile() ? text_->source().toLocalFile() : QString();
}

void UserGuideDialog::showDocument(const QString& file)
{
    const QString path = QFileInfo::exists(file) ? file : locate(guideFolder(), QFileInfo(file).fileName());
    if (path.isEmpty())
        return;
    text_->setSource(QUrl::fromLocalFile(path), QTextDocument::MarkdownResource);
    for (int row = 0; row < contents_->count(); ++row)
        if (contents_->item(row)->data(Qt::UserRole).toString() == path && contents_->currentRow() != row)
            contents_->setCurrentRow(row);
}

void UserGuideDialog::follow(const QUrl& link)
{
    if (!link.isRelative() && !link.isLocalFile()) {
        QDesktopServices::openUrl(link);
        return;
    }
    if (link.path().isEmpty()) { // "#section" of the document shown
        text_->scrollToAnchor(link.fragment());
        return;
    }
    const QUrl target = text_->source().resolved(link);
    showDocument(target.toLocalFile());
    if (!link.fragment().isEmpty())
        text_->scrollToAnchor(link.fragment());
}

void UserGuideDialog::retranslate()
{
    setWindowTitle(tr("Entrena user guide"));
    contents_->setAccessibleName(tr("Contents"));
    text_->setAccessibleName(tr("Document"));
    for (int i = 0; i < contents_->count(); ++i)
        contents_->item(i)->setText(tr(contents_->item(i)->data(Qt::UserRole + 1).toString().toLatin1().constData()));
}

void UserGuideDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QDialog::changeEvent(event);
}

} // namespace entrena::ui
