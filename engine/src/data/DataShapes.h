#pragma once
// The data sets' own answers to "what shape, which classes" and "show me some", for their registry
// entries (data/DatasetRegistry.cpp): each reads as little as it can. The shapes are defined in
// data/DataShapes.cpp, the previews in data/DataPreview.cpp.

#include "data/ImageFolder.h"
#include "entrena/data/DataPreview.h"

namespace entrena {

DataShape fashionMnistShape(const DataSpec& spec);   ///< 28×28 grey, torchvision's class names
DataShape tenClassesOf28Shape(const DataSpec& spec); ///< mnist, synthetic: 28×28 grey, classes "0" … "9"
DataShape cifar10Shape(const DataSpec& spec);        ///< 32×32 colour, batches.meta.txt's names
DataShape imageFolderShape(const DataSpec& spec);    ///< the listing and the images' headers

/// How an image folder is listed and decoded for `spec`: its image size and channels, all cores.
ImageFolderOptions imageFolderOptions(const DataSpec& spec);

/// The folder's listing and a few decoded images per class (not every image decoded).
DataPreview previewImageFolder(const DataSpec& spec, int perClass, uint64_t seed);

} // namespace entrena
