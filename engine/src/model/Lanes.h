#pragma once
// Eight fp32 lanes in GCC's vector types, for the hand-written kernels of model/ (PoolRelu,
// ConvPoolRelu): the compiler lowers them to the target's registers (one AVX2 register, half an
// AVX-512 one, two SSE ones) with its compares and blends, where plain loops with selects and NaN
// rules made it branch per element. Each kernel is compiled per target (AVX-512, AVX2, baseline) with
// these helpers always inlined into it, so no 32-byte vector crosses a call: GCC's note that such calls
// would change the ABI without AVX does not apply, and is silenced for the files that include this.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>

#pragma GCC diagnostic ignored "-Wpsabi"

namespace entrena::lanes {

using F8 = float __attribute__((vector_size(32)));
using I8 = int __attribute__((vector_size(32)));
using B8 = uint8_t __attribute__((vector_size(8)));

/// Which input of a 2×2 window takes the pooled output's gradient: 0–3 in row order, or none (the
/// ReLU after the pool gave 0).
constexpr uint8_t kNone = 4;

#define ENTRENA_LANES_INLINE inline __attribute__((always_inline))

/// The instruction sets a kernel is compiled for.
enum class Isa { Avx512, Avx2, Baseline };

/// The widest set ATEN_CPU_CAPABILITY allows (`default`: the baseline; `avx2`: AVX2; unset or
/// anything else: any), so that narrowing ATen's kernels for a test narrows Entrena's too.
inline Isa capabilityCeiling()
{
    const char* capability = std::getenv("ATEN_CPU_CAPABILITY");
    const std::string asked = capability ? capability : "";
    return asked == "default" ? Isa::Baseline : asked == "avx2" ? Isa::Avx2 : Isa::Avx512;
}

/// The widest of them this CPU runs (x86: AVX-512 F/VL/BW; AVX2 with FMA; else the baseline),
/// narrowed as ATen's own kernels are by ATEN_CPU_CAPABILITY (`avx2`, `default`): a run or a test
/// suite under a narrowed capability runs Entrena's narrower copies too.
inline Isa widestIsa()
{
    static const Isa widest = [] {
        Isa cpu = Isa::Baseline;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
            cpu = Isa::Avx512;
        else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            cpu = Isa::Avx2;
#endif
        return Isa(std::max(int(cpu), int(capabilityCeiling()))); // later in the enum is narrower
    }();
    return widest;
}

/// For the tests: run a narrower set than the widest (each copy of a kernel is tested on one CPU);
/// -1, the default, for the widest.
inline std::atomic<int>& narrowedIsa()
{
    static std::atomic<int> isa{-1};
    return isa;
}

/// The set the kernels run: the widest, or a narrower one the tests asked for.
inline Isa isa()
{
    const int narrowed = narrowedIsa().load(std::memory_order_relaxed);
    return narrowed >= int(widestIsa()) ? Isa(narrowed) : widestIsa();
}

/// The target attributes of the per-ISA copies of a kernel (x86 only; elsewhere the baseline alone).
#define ENTRENA_TARGET_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx2,fma")))
#define ENTRENA_TARGET_AVX2 __attribute__((target("avx2,fma")))

ENTRENA_LANES_INLINE F8 load(const float* p)
{
    F8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
ENTRENA_LANES_INLINE I8 loadBits(const float* p)
{
    I8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}
ENTRENA_LANES_INLINE void store(float* p, I8 bits) { __builtin_memcpy(p, &bits, sizeof bits); }
ENTRENA_LANES_INLINE void store(float* p, F8 v) { __builtin_memcpy(p, &v, sizeof v); }
ENTRENA_LANES_INLINE I8 bitsOf(F8 v)
{
    I8 bits;
    __builtin_memcpy(&bits, &v, sizeof bits);
    return bits;
}
ENTRENA_LANES_INLINE F8 asFloat(I8 bits)
{
    F8 v;
    __builtin_memcpy(&v, &bits, sizeof v);
    return v;
}
ENTRENA_LANES_INLINE F8 broadcast(float x) { return F8{} + x; }
/// The lanes of `v` where `mask` is set, 0 elsewhere.
ENTRENA_LANES_INLINE F8 where(I8 mask, F8 v) { return asFloat(mask & bitsOf(v)); }
ENTRENA_LANES_INLINE void storeCodes(uint8_t* p, I8 code)
{
    const B8 narrow = __builtin_convertvector(code, B8);
    __builtin_memcpy(p, &narrow, sizeof narrow);
}
ENTRENA_LANES_INLINE I8 loadCodes(const uint8_t* p)
{
    B8 narrow;
    __builtin_memcpy(&narrow, p, sizeof narrow);
    return __builtin_convertvector(narrow, I8);
}

/// ATen's 2×2 max-pool over four candidates (a later value wins when greater, or when it is NaN: the
/// last NaN), then ReLU (keeps NaN; passes the gradient where its output is not <= 0): the output and,
/// in `code`, the winner or kNone.
ENTRENA_LANES_INLINE F8 poolRelu(const F8 (&v)[4], I8& code)
{
    F8 m = v[0];
    I8 at = I8{} + 0;
    for (int k = 1; k < 4; ++k) {
        const I8 wins = (v[k] > m) | (v[k] != v[k]);
        m = asFloat((wins & bitsOf(v[k])) | (~wins & bitsOf(m)));
        at = (wins & k) | (~wins & at);
    }
    const I8 dead = m <= 0.0f;
    code = (dead & int(kNone)) | (~dead & at);
    return where(~(m < 0.0f), m);
}

/// The same for one lane.
ENTRENA_LANES_INLINE float poolRelu(const float (&v)[4], uint8_t& code)
{
    float m = v[0];
    uint8_t at = 0;
    for (uint8_t k = 1; k < 4; ++k)
        if (v[k] > m || v[k] != v[k]) {
            m = v[k];
            at = k;
        }
    code = m <= 0.0f ? kNone : at;
    return m < 0.0f ? 0.0f : m;
}

} // namespace entrena::lanes
