#include "ChoiceLabels.h"

namespace entrena::app {

QString ChoiceLabels::dataset(const QString& id)
{
    if (id == QStringLiteral("fashion-mnist"))
        return tr("Fashion-MNIST");
    if (id == QStringLiteral("mnist"))
        return tr("MNIST");
    if (id == QStringLiteral("csv"))
        return tr("CSV table");
    if (id == QStringLiteral("synthetic"))
        return tr("Synthetic (no files)");
    return id;
}

QString ChoiceLabels::model(const QString& id)
{
    if (id == QStringLiteral("mlp"))
        return tr("MLP");
    if (id == QStringLiteral("cnn"))
        return tr("CNN");
    if (id == QStringLiteral("resnet"))
        return tr("ResNet");
    if (id == QStringLiteral("torchscript"))
        return tr("TorchScript");
    return id;
}

QString ChoiceLabels::optimizer(const QString& id)
{
    // The algorithms' own names, the same in every language.
    if (id == QStringLiteral("sgd"))
        return QStringLiteral("SGD");
    if (id == QStringLiteral("adam"))
        return QStringLiteral("Adam");
    if (id == QStringLiteral("adamw"))
        return QStringLiteral("AdamW");
    if (id == QStringLiteral("rmsprop"))
        return QStringLiteral("RMSprop");
    return id;
}

QString ChoiceLabels::scheduler(const QString& id)
{
    if (id == QStringLiteral("constant"))
        return tr("Constant");
    if (id == QStringLiteral("step"))
        return tr("Step");
    if (id == QStringLiteral("multistep"))
        return tr("Multi-step");
    if (id == QStringLiteral("exponential"))
        return tr("Exponential");
    if (id == QStringLiteral("cosine"))
        return tr("Cosine");
    if (id == QStringLiteral("one_cycle"))
        return tr("One-cycle");
    if (id == QStringLiteral("reduce_on_plateau"))
        return tr("Reduce on plateau");
    return id;
}

} // namespace entrena::app
