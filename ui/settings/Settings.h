#pragma once

#include <QSettings>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace entrena::ui {

/// One settings key, declared once with its type and default (after Tiled's SessionOption).
template <typename T> class Setting {
public:
    Setting(const char* key, T fallback) : key_(QString::fromLatin1(key)), fallback_(std::move(fallback)) {}
    T value() const { return QSettings().value(key_, QVariant::fromValue(fallback_)).template value<T>(); }
    void set(const T& v) const { QSettings().setValue(key_, QVariant::fromValue(v)); }

private:
    QString key_;
    T fallback_;
};

/// Every setting Entrena keeps.
struct Settings {
    static const Setting<QString> language;       ///< "" (system), "en", "es"
    static const Setting<QString> theme;          ///< "" (the desktop's), "light", "dark"
    static const Setting<QByteArray> windowGeometry;
    static const Setting<QByteArray> windowState;
    static const Setting<QByteArray> mainSplitter;    ///< the form | the charts and runs
    static const Setting<QByteArray> chartsSplitter;  ///< the charts / the runs
    static const Setting<QByteArray> runsHeader;      ///< the runs list's column widths and order
    static const Setting<bool> formShown;             ///< View → Configuration
    static const Setting<bool> runsShown;             ///< View → Runs list
    static const Setting<QString> lastForm;           ///< the form's configuration at the last quit (JSON)
    static const Setting<QString> lastConfigFolder;
    static const Setting<QString> lastExportFolder; ///< charts, reports and checkpoints
    static const Setting<QString> lastTryFolder;    ///< images a model was tried on
    static const Setting<QStringList> hiddenRunColumns;    ///< RunTableModel::Column numbers
    static const Setting<QStringList> runParameterColumns; ///< configuration keys shown as columns
    static const Setting<double> baselineTolerance;        ///< percentage points a faster run may lose
};

} // namespace entrena::ui
