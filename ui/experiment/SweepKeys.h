#pragma once
// The configuration keys a sweep can vary, read from the registries (entrena/config/Registry.h) for
// one base configuration: the sections' keys and those of its data set, model, optimizer and
// schedule, with their type, range and value. The sweep dialog offers them and starts a new row
// of the space around the base's value.

#include "entrena/config/Config.h"
#include "entrena/config/OptionKey.h"
#include "entrena/experiment/SearchSpace.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace entrena::ui {

struct SweepKey {
    QString key; ///< as --set names it: "optimizer.lr"
    ValueKind kind = ValueKind::Number;
    double low = 0, high = 0; ///< the accepted range (Number, Integer, IntegerList items)
    QStringList choices;      ///< Choice: the accepted names
    QString doc;              ///< the documentation's line
    QString value;            ///< the base configuration's value, as JSON
};

/// Every key worth searching for `base`, the common ones first (learning rate, momentum, weight
/// decay, batch size, the model's widths, epochs), then the rest section by section. Keys that
/// change how a run is carried out but not what it learns (paths, workers, logging, devices) are
/// left out.
std::vector<SweepKey> sweepableKeys(const RunConfig& base);

/// A new row's distribution for `key`: a range around the base's value (logarithmic for rates and
/// decays), or a choice for lists, switches and names.
struct SweepRowStart {
    Distribution::Kind kind = Distribution::Kind::Uniform;
    double low = 0, high = 0;
    QString choices; ///< comma-separated JSON values: "64, 128, 256"
};
SweepRowStart startFor(const SweepKey& key);

} // namespace entrena::ui
