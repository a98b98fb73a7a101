#pragma once
// Using a trained model on new inputs (docs/predict.md): image files, folders of them, or the rows
// of CSV tables, made into the model's input exactly as the run's training data was (size,
// channels, normalisation, feature scaling, class names), and classified by one of the run's
// checkpoints or by a model file `entrena-cli export` wrote. Plain C++: the GUI includes it.

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace entrena {

class RunStore;

/// The request cannot be met as given: no such file, a table without the model's columns, images
/// for a model of tables. The message names the problem and what to give instead (exit status 2).
class PredictInputError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// What a model takes, as its run recorded it (or as the sidecar of its export says).
struct ModelInputSpec {
    int64_t channels = 1, height = 28, width = 28; ///< tables: 1 × 1 × features
    std::vector<std::string> classNames;           ///< in the order of the model's outputs
    bool table = false;                            ///< rows of a CSV table rather than images
    std::vector<std::string> columns;              ///< tables: feature columns by header name (empty: by position)
    std::string labelColumn;                       ///< tables: the label column's name (or 0-based index)
    bool header = true;                            ///< tables: the training file had a header row
    std::string normalizationJson;                 ///< as the store keeps it (docs/run-store.md)
};

struct RankedClass {
    int64_t index = 0; ///< the model's output number
    std::string name;
    double probability = 0;
};

struct Prediction {
    std::string input;            ///< the image file, or "table.csv:12" for line 12 of a table
    int64_t line = 0;             ///< tables: the row's line in its file (1-based, the header is line 1)
    std::vector<RankedClass> top; ///< the most probable classes, most probable first
    /// The class the input is known to be (-1: not known): a table's label, or an image's folder when
    /// that folder is named after one of the model's classes.
    int64_t truth = -1;
};

/// An input left out, and why (it does not decode, a cell is not a number, …).
struct SkippedInput {
    std::string input;
    std::string reason;
};

struct PredictionReport {
    std::vector<std::string> classes;
    std::vector<Prediction> predictions; ///< in the order the inputs were given (a folder's files bytewise)
    std::vector<SkippedInput> skipped;
    int64_t labelled = 0;                        ///< predictions with a known class
    int64_t correct = 0;                         ///< of those, the ones whose top class is it
    std::vector<std::vector<int64_t>> confusion; ///< over the labelled: rows true, columns predicted
    std::vector<std::string> unknownLabels;      ///< labels that name none of the model's classes (first 10)
    double accuracy() const { return labelled > 0 ? double(correct) / double(labelled) : 0.0; }
};

/// An image as the model sees it: decoded to the model's channels and resized to its height × width,
/// before normalisation. Pixels channel-first (planes R, G, B, or one grey plane).
struct ModelView {
    int64_t channels = 0, height = 0, width = 0;
    std::vector<uint8_t> pixels;
};

/// Inputs done of all, while predicting.
using PredictProgress = std::function<void(int64_t done, int64_t total)>;

/// A trained model ready to classify. Loading checks everything it can (the checkpoint's checksum,
/// the weights against the architecture), so that predict() fails only on the inputs.
class Predictor {
public:
    /// Run `runId`'s checkpoint `which`: "best" (by validation), "last", or "" for the best when
    /// the run has one, else the last. Throws CheckpointError (no such checkpoint, a damaged file) or
    /// PredictInputError (no such run, a run without a record of its data).
    static Predictor fromRun(RunStore& store, int64_t runId, const std::string& which);
    /// A `.pt` that `entrena-cli export` wrote, with its `.pt.json` beside it (what a colleague
    /// without the run store has). Throws PredictInputError naming what is missing or wrong.
    static Predictor fromExport(const std::string& file);

    Predictor(Predictor&&) noexcept;
    Predictor& operator=(Predictor&&) noexcept;
    ~Predictor();

    const ModelInputSpec& input() const;
    /// Where the weights come from, as a person reads it: "run 3 'digits', best checkpoint (epoch 4, step 120)".
    const std::string& description() const;
    /// Whether the weights run channels-last: the layout their run trained in (a TorchScript module's
    /// is the run's measured `channels_last` path), so that its kernels give the run's rounding.
    bool channelsLast() const;

    /// Classifies `inputs`: image files (PNG or JPEG, told by their bytes), folders searched for them
    /// recursively, or `.csv` tables (each row one input), in the order given. `topK` classes per
    /// input (at most all); `threads` ≥ 1 decode (the forward pass runs on LibTorch's intra-op threads
    /// as the process set them: a library call does not change process-wide settings). An input that does not decode, or a row
    /// that is not numbers, is skipped and listed, never fatal. Throws PredictInputError for a path
    /// that does not exist, a folder without images, a table without the model's columns, or images
    /// for a model of tables (and the reverse).
    PredictionReport predict(const std::vector<std::string>& inputs, int topK, int threads,
                             const PredictProgress& progress = {}) const;

    /// `imageFile` as the model sees it. Throws std::runtime_error naming the file when it does not
    /// decode, PredictInputError for a model of tables.
    ModelView modelView(const std::string& imageFile) const;

    /// One row of a table typed or pasted by a person: the model's features in its column order,
    /// separated by commas, or by semicolons or tabs (then a decimal comma is read as a point, as a
    /// spreadsheet in a comma locale copies it). Throws PredictInputError naming the problem: the
    /// wrong number of values, a value that is not a number, a model of images.
    Prediction predictRow(const std::string& row, int topK) const;

private:
    struct Impl;
    explicit Predictor(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

} // namespace entrena
