#include "data/DataShapes.h"

#include "data/Cifar10Reader.h"
#include "data/Dataset.h"
#include "entrena/config/Registry.h"

#include <algorithm>
#include <thread>

namespace entrena {

ImageFolderOptions imageFolderOptions(const DataSpec& spec)
{
    ImageFolderOptions o;
    o.channels = spec.channels;
    if (!spec.imageSize.empty()) {
        o.height = int(spec.imageSize.front());
        o.width = int(spec.imageSize.back());
    }
    o.threads = int(std::max(1u, std::thread::hardware_concurrency()));
    return o;
}

DataShape fashionMnistShape(const DataSpec&)
{
    return {fashionMnistClasses(), 1, 28, 28};
}

DataShape tenClassesOf28Shape(const DataSpec&)
{
    return {numberedClasses(10), 1, 28, 28};
}

DataShape cifar10Shape(const DataSpec& spec)
{
    return {readCifar10ClassNames(spec.path), 3, 32, 32};
}

DataShape imageFolderShape(const DataSpec& spec)
{
    const ImageFolderListing l = listImageFolder(spec.path, imageFolderOptions(spec));
    return {l.classes, l.channels, l.height, l.width, int64_t(l.train.size()), l.hasVal};
}

DataShape probeDataShape(const DataSpec& spec)
{
    if (const auto shape = registryEntry(spec.dataset).shape)
        return shape(spec);
    DataSpec small = spec;
    small.valFraction = 0;
    const DataSplits d = loadData(small, 1);
    return {d.classNames, d.channels(), d.height(), d.width(), d.trainX.size(0), false};
}

} // namespace entrena
