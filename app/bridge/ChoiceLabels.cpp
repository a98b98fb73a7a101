#include "ChoiceLabels.h"

#include "entrena/config/Registry.h"

namespace entrena::app {
namespace {

// A registry entry's label in the reader's language, or the identifier itself when no entry has
// that name (a run stored by a newer Entrena).
template <class Kind>
QString labelOf(const QString& id, bool translated)
{
    const auto kind = fromString<Kind>(id.toStdString());
    if (!kind)
        return id;
    const char* label = registryEntry(*kind).label;
    return translated ? QCoreApplication::translate("Registry", label) : QString::fromUtf8(label);
}

} // namespace

QString ChoiceLabels::dataset(const QString& id)
{
    return labelOf<DatasetKind>(id, true);
}
QString ChoiceLabels::model(const QString& id)
{
    return labelOf<ModelArch>(id, true);
}
// The algorithms' own names, the same in every language.
QString ChoiceLabels::optimizer(const QString& id)
{
    return labelOf<OptimizerKind>(id, false);
}
QString ChoiceLabels::scheduler(const QString& id)
{
    return labelOf<SchedulerKind>(id, true);
}

} // namespace entrena::app
