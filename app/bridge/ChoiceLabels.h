#pragma once

#include <QCoreApplication>
#include <QString>

namespace entrena::app {

/// What the GUI shows for a configuration's choices: "Reduce on plateau" for reduce_on_plateau,
/// "Fashion-MNIST" for fashion-mnist. The form and the runs list say the same; the identifiers
/// stay in files and on the command line. An unknown identifier is shown as it is.
class ChoiceLabels {
    Q_DECLARE_TR_FUNCTIONS(ChoiceLabels)
public:
    static QString dataset(const QString& id);
    static QString model(const QString& id);
    static QString optimizer(const QString& id);
    static QString scheduler(const QString& id);
};

} // namespace entrena::app
