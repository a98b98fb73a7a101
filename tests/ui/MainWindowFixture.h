#pragma once
// What the tests of the main window share: a small real run, and the processes left behind.

#include "entrena/config/Config.h"

#include <QByteArray>
#include <QDir>
#include <QFile>

namespace entrena::test {

inline RunConfig smallRun()
{
    return RunConfig::fromJson(R"({"name": "ui-run", "seed": 5,
        "data": {"path": ")" ENTRENA_FMNIST_DIR R"(", "train_limit": 3000, "test_limit": 1000, "batch_size": 64},
        "model": {"arch": "mlp"}, "scheduler": {"name": "constant"},
        "train": {"epochs": 2, "log_every": 5}})");
}

/// The processes this one started that are still there (any thread's children).
inline QByteArray childProcesses()
{
    QByteArray all;
    for (const QString& task : QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile children(QStringLiteral("/proc/self/task/%1/children").arg(task));
        all += children.open(QIODevice::ReadOnly) ? children.readAll().trimmed() : QByteArray("unreadable ") + task.toUtf8();
    }
    return all;
}

} // namespace entrena::test
