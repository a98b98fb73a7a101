#include "train/MlpKernels.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <sched.h>

namespace entrena::mlp {
namespace {

enum { RowMajor = 101, NoTrans = 111, Trans = 112 };

inline void pause()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/// The threads of one step wait for each other between its phases: a spin on a generation counter
/// (microseconds, where a futex round trip costs tens), yielding the core if a thread is slow to come
/// (the machine is shared).
class SpinBarrier {
public:
    void wait(int participants)
    {
        if (participants == 1)
            return;
        const int generation = generation_.load(std::memory_order_acquire);
        if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == participants) {
            arrived_.store(0, std::memory_order_relaxed);
            generation_.fetch_add(1, std::memory_order_release);
            return;
        }
        for (int spins = 0; generation_.load(std::memory_order_acquire) == generation; ++spins) {
            if (spins < 4096)
                pause();
            else
                sched_yield();
        }
    }

private:
    alignas(64) std::atomic<int> arrived_{0};
    alignas(64) std::atomic<int> generation_{0};
};

/// Thread `t`'s share of [0, n) out of `p`, in whole 64-byte lines of floats where n allows: two
/// threads never write the same cache line of a row.
struct Range {
    int from, to;
};
Range share(int n, int t, int p)
{
    const int chunk = ((n + p - 1) / p + 15) / 16 * 16;
    const int from = std::min(n, t * chunk);
    return {from, std::min(n, from + chunk)};
}

/// Rows of `rows`: the loss is per row.
Range rowShare(int rows, int t, int p) { return {int(int64_t(rows) * t / p), int(int64_t(rows) * (t + 1) / p)}; }

struct alignas(64) Partial {
    double loss = 0;
};

void forwardLayer(Sgemm sgemm, const Layer& l, const float* in, float* out, int rows, bool relu, Range c)
{
    if (c.from >= c.to)
        return;
    for (int r = 0; r < rows; ++r)
        std::copy(l.b + c.from, l.b + c.to, out + int64_t(r) * l.out + c.from);
    sgemm(RowMajor, NoTrans, Trans, rows, c.to - c.from, l.in, 1.0f, in, l.in, l.w + int64_t(c.from) * l.in, l.in, 1.0f,
          out + c.from, l.out);
    if (!relu)
        return;
    for (int r = 0; r < rows; ++r) {
        float* o = out + int64_t(r) * l.out;
        for (int j = c.from; j < c.to; ++j)
            o[j] = o[j] < 0.0f ? 0.0f : o[j]; // ATen's relu (clamp_min) keeps NaN
    }
}

/// Softmax cross-entropy of rows [from, to): the loss summed, and its gradient with respect to the
/// scores, (softmax − target) / rows, where the target puts 1 − ε on the label and ε / classes on every
/// class (PyTorch's label smoothing).
double lossRows(const float* scores, const int64_t* y, float* grad, int classes, int rows, Range r, double smoothing)
{
    double sum = 0;
    const float onLabel = float(1.0 - smoothing), spread = float(smoothing / classes), perRow = 1.0f / float(rows);
    for (int i = r.from; i < r.to; ++i) {
        const float* z = scores + int64_t(i) * classes;
        float* g = grad + int64_t(i) * classes;
        float top = z[0];
        for (int c = 1; c < classes; ++c)
            top = std::max(top, z[c]);
        float total = 0, zsum = 0;
        for (int c = 0; c < classes; ++c) {
            g[c] = std::exp(z[c] - top);
            total += g[c];
            zsum += z[c];
        }
        const float logTotal = top + std::log(total);
        // −Σ target·log p = log Σ exp z − (1 − ε)·z_y − ε·mean z
        sum += double(logTotal) - double(onLabel) * z[y[i]] - double(spread) * zsum;
        const float inv = 1.0f / total;
        for (int c = 0; c < classes; ++c)
            g[c] = (g[c] * inv - spread) * perRow;
        g[y[i]] -= onLabel * perRow;
    }
    return sum;
}

/// The weight's and the bias's gradients for the output columns c (rows of gw), from the gradient
/// with respect to the layer's output and the layer's input.
void weightGradient(Sgemm sgemm, const Layer& l, const float* gradOut, const float* in, int rows, Range c)
{
    if (c.from >= c.to)
        return;
    sgemm(RowMajor, Trans, NoTrans, c.to - c.from, l.in, rows, 1.0f, gradOut + c.from, l.out, in, l.in, 0.0f,
          l.gw + int64_t(c.from) * l.in, l.in);
    std::fill(l.gb + c.from, l.gb + c.to, 0.0f);
    for (int r = 0; r < rows; ++r) {
        const float* g = gradOut + int64_t(r) * l.out;
        for (int j = c.from; j < c.to; ++j)
            l.gb[j] += g[j];
    }
}

/// The gradient with respect to the layer's input, columns c, through the ReLU that made that input.
void inputGradient(Sgemm sgemm, const Layer& l, const float* gradOut, const float* in, float* gradIn, int rows, Range c)
{
    if (c.from >= c.to)
        return;
    sgemm(RowMajor, NoTrans, NoTrans, rows, c.to - c.from, l.out, 1.0f, gradOut, l.out, l.w + c.from, l.in, 0.0f,
          gradIn + c.from, l.in);
    for (int r = 0; r < rows; ++r) {
        const float* a = in + int64_t(r) * l.in;
        float* g = gradIn + int64_t(r) * l.in;
        for (int j = c.from; j < c.to; ++j)
            g[j] = a[j] <= 0.0f ? 0.0f : g[j]; // threshold_backward's rule (NaN passes); unconditional: vectorises
    }
}

} // namespace

void Workspace::shape(const std::vector<Layer>& layers, int rows)
{
    act.resize(layers.size());
    grad.resize(layers.size());
    for (size_t k = 0; k < layers.size(); ++k) {
        act[k].resize(size_t(rows) * layers[k].out);
        grad[k].resize(size_t(rows) * layers[k].out);
    }
}

StepResult trainStep(Sgemm sgemm, const std::vector<Layer>& layers, Workspace& ws, const float* x, const int64_t* y,
                     int rows, double smoothing, int threads)
{
    ws.shape(layers, rows);
    const int depth = int(layers.size());
    const int classes = layers.back().out;
    std::vector<Partial> partial(std::max(1, threads));
    SpinBarrier barrier;
    StepResult result;
#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num(), p = omp_get_num_threads();
        auto input = [&](int k) { return k == 0 ? x : ws.act[k - 1].data(); };
        for (int k = 0; k < depth; ++k) {
            forwardLayer(sgemm, layers[k], input(k), ws.act[k].data(), rows, k + 1 < depth, share(layers[k].out, t, p));
            barrier.wait(p);
        }
        partial[t].loss = lossRows(ws.act[depth - 1].data(), y, ws.grad[depth - 1].data(), classes, rows,
                                   rowShare(rows, t, p), smoothing);
        barrier.wait(p);
        if (t == 0)
            result.forwardEnd = std::chrono::steady_clock::now();
        for (int k = depth - 1; k >= 0; --k) {
            weightGradient(sgemm, layers[k], ws.grad[k].data(), input(k), rows, share(layers[k].out, t, p));
            if (k == 0)
                break;
            inputGradient(sgemm, layers[k], ws.grad[k].data(), input(k), ws.grad[k - 1].data(), rows,
                          share(layers[k].in, t, p));
            barrier.wait(p);
        }
    }
    double sum = 0;
    for (const auto& s : partial)
        sum += s.loss;
    result.loss = sum / rows;
    return result;
}

} // namespace entrena::mlp
