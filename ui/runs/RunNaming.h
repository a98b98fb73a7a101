#pragma once

#include "entrena/config/Choices.h"

#include <QString>
#include <QVector>

namespace entrena::ui {

/// A run already in the store, as the namer needs it.
struct NamedRun {
    qint64 id = 0;
    QString name;
    QString configJson;
};

/// The name a new run gets, so that runs started from one form can be told apart in the list
/// (before, every run was "fmnist-mlp"). A name no run has is kept. Otherwise the name's base
/// (the part before " · ") gets what differs from the latest run of that base, at most three
/// settings by their last key ("fmnist-mlp · lr 0.01, batch_size 256"), or, when nothing differs,
/// the next number ("fmnist-mlp #3").
QString nameForNewRun(const QString& name, const QString& configJson, const QVector<NamedRun>& runs);

/// The name the form suggests for data set `dataset` read from `path`, and model `arch`: "fmnist-mlp",
/// "digits-cnn" (data with no place of its own is named by its folder or file).
QString suggestedRunName(DatasetKind dataset, const QString& path, ModelArch arch);

} // namespace entrena::ui
