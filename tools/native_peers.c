/* Times the native sin/cos peers that have no Python face: SLEEF (u10 and u35)
 * and glibc's vector math library libmvec, at the widest vector width this CPU
 * runs (AVX-512F, else AVX2 with FMA), and glibc's scalar sin/cos; on the inputs
 * of one file, into a preallocated output array.  Not part of crtrig: a tool of
 * `crtrig bench --native-peers`, driven by tools/native_peers.py, which writes
 * the inputs (the bench's own), builds this file and judges the outputs.
 *
 *   native_peers FUNC DTYPE COUNT INPUT OUTDIR MIN_SAMPLE_MS ROUNDS
 *
 * FUNC: sin or cos; DTYPE: float32 or float64; INPUT: COUNT raw elements of
 * DTYPE.  For each peer this machine has, one JSON object per line on stdout:
 * {"id", "name", "isa", "ns_per_element" (median), "q1", "q3",
 * "calls_per_sample"}, and its last call's outputs in OUTDIR/<id>.bin.
 *
 * Timing, as crtrig bench times its contenders: a sample is as many calls over
 * the whole array, back to back, as last at least MIN_SAMPLE_MS (one call when
 * a call is slower), its time over its calls; ROUNDS samples per peer, peers in
 * rotating order from round to round; the median and quartiles over the rounds.
 *
 * Build (tools/native_peers.py does): cc -O2 -ffp-contract=off native_peers.c
 * -lmvec -lm [-DHAVE_SLEEF -lsleef].  Needs only the libraries, no header.  No -ffast-math: the vector functions are
 * called by their ABI names (_ZGVdN4v_sin, ...), each call site compiled for
 * its ISA through a target attribute and run only where the CPU has it. */
#define _POSIX_C_SOURCE 200809L
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* glibc's vector ABI (libmvec): d = AVX2, e = AVX-512. */
__m256d _ZGVdN4v_sin(__m256d);
__m256d _ZGVdN4v_cos(__m256d);
__m256 _ZGVdN8v_sinf(__m256);
__m256 _ZGVdN8v_cosf(__m256);
__m512d _ZGVeN8v_sin(__m512d);
__m512d _ZGVeN8v_cos(__m512d);
__m512 _ZGVeN16v_sinf(__m512);
__m512 _ZGVeN16v_cosf(__m512);

#ifdef HAVE_SLEEF
/* SLEEF's (libsleef, Debian's libsleef-dev), declared here: sleef.h declares
 * them only when the whole file is compiled with -mavx2 / -mavx512f. */
__m256d Sleef_sind4_u10avx2(__m256d);
__m256 Sleef_sinf8_u10avx2(__m256);
__m512d Sleef_sind8_u10avx512f(__m512d);
__m512 Sleef_sinf16_u10avx512f(__m512);
__m256d Sleef_cosd4_u10avx2(__m256d);
__m256 Sleef_cosf8_u10avx2(__m256);
__m512d Sleef_cosd8_u10avx512f(__m512d);
__m512 Sleef_cosf16_u10avx512f(__m512);
__m256d Sleef_sind4_u35avx2(__m256d);
__m256 Sleef_sinf8_u35avx2(__m256);
__m512d Sleef_sind8_u35avx512f(__m512d);
__m512 Sleef_sinf16_u35avx512f(__m512);
__m256d Sleef_cosd4_u35avx2(__m256d);
__m256 Sleef_cosf8_u35avx2(__m256);
__m512d Sleef_cosd8_u35avx512f(__m512d);
__m512 Sleef_cosf16_u35avx512f(__m512);
#endif

typedef void (*kernel_fn)(const void *in, void *out, size_t count);

/* One loop per (vector function, type, ISA): full vectors straight from the
 * array, the tail through a zero-padded vector. */
#define AVX2 __attribute__((target("avx2,fma")))
#define AVX512 __attribute__((target("avx512f")))

#define LOOP(name, attr, type, vec, lanes, load, store, fn)                     \
    static attr void name(const void *in_, void *out_, size_t count)            \
    {                                                                            \
        const type *in = (const type *)in_;                                      \
        type *out = (type *)out_;                                                \
        size_t i = 0;                                                            \
        for (; i + (lanes) <= count; i += (lanes))                               \
            store(out + i, fn(load(in + i)));                                    \
        if (i < count) {                                                         \
            type a[lanes], b[lanes];                                             \
            memset(a, 0, sizeof a);                                              \
            memcpy(a, in + i, (count - i) * sizeof(type));                       \
            store(b, fn(load(a)));                                               \
            memcpy(out + i, b, (count - i) * sizeof(type));                      \
        }                                                                        \
    }

LOOP(mvec_sin_d_avx2, AVX2, double, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, _ZGVdN4v_sin)
LOOP(mvec_cos_d_avx2, AVX2, double, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, _ZGVdN4v_cos)
LOOP(mvec_sin_f_avx2, AVX2, float, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, _ZGVdN8v_sinf)
LOOP(mvec_cos_f_avx2, AVX2, float, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, _ZGVdN8v_cosf)
LOOP(mvec_sin_d_avx512, AVX512, double, __m512d, 8, _mm512_loadu_pd, _mm512_storeu_pd, _ZGVeN8v_sin)
LOOP(mvec_cos_d_avx512, AVX512, double, __m512d, 8, _mm512_loadu_pd, _mm512_storeu_pd, _ZGVeN8v_cos)
LOOP(mvec_sin_f_avx512, AVX512, float, __m512, 16, _mm512_loadu_ps, _mm512_storeu_ps, _ZGVeN16v_sinf)
LOOP(mvec_cos_f_avx512, AVX512, float, __m512, 16, _mm512_loadu_ps, _mm512_storeu_ps, _ZGVeN16v_cosf)

#ifdef HAVE_SLEEF
LOOP(sleef10_sin_d_avx2, AVX2, double, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, Sleef_sind4_u10avx2)
LOOP(sleef10_cos_d_avx2, AVX2, double, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, Sleef_cosd4_u10avx2)
LOOP(sleef10_sin_f_avx2, AVX2, float, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, Sleef_sinf8_u10avx2)
LOOP(sleef10_cos_f_avx2, AVX2, float, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, Sleef_cosf8_u10avx2)
LOOP(sleef35_sin_d_avx2, AVX2, double, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, Sleef_sind4_u35avx2)
LOOP(sleef35_cos_d_avx2, AVX2, double, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, Sleef_cosd4_u35avx2)
LOOP(sleef35_sin_f_avx2, AVX2, float, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, Sleef_sinf8_u35avx2)
LOOP(sleef35_cos_f_avx2, AVX2, float, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, Sleef_cosf8_u35avx2)
LOOP(sleef10_sin_d_avx512, AVX512, double, __m512d, 8, _mm512_loadu_pd, _mm512_storeu_pd, Sleef_sind8_u10avx512f)
LOOP(sleef10_cos_d_avx512, AVX512, double, __m512d, 8, _mm512_loadu_pd, _mm512_storeu_pd, Sleef_cosd8_u10avx512f)
LOOP(sleef10_sin_f_avx512, AVX512, float, __m512, 16, _mm512_loadu_ps, _mm512_storeu_ps, Sleef_sinf16_u10avx512f)
LOOP(sleef10_cos_f_avx512, AVX512, float, __m512, 16, _mm512_loadu_ps, _mm512_storeu_ps, Sleef_cosf16_u10avx512f)
LOOP(sleef35_sin_d_avx512, AVX512, double, __m512d, 8, _mm512_loadu_pd, _mm512_storeu_pd, Sleef_sind8_u35avx512f)
LOOP(sleef35_cos_d_avx512, AVX512, double, __m512d, 8, _mm512_loadu_pd, _mm512_storeu_pd, Sleef_cosd8_u35avx512f)
LOOP(sleef35_sin_f_avx512, AVX512, float, __m512, 16, _mm512_loadu_ps, _mm512_storeu_ps, Sleef_sinf16_u35avx512f)
LOOP(sleef35_cos_f_avx512, AVX512, float, __m512, 16, _mm512_loadu_ps, _mm512_storeu_ps, Sleef_cosf16_u35avx512f)
#endif

static void libm_sin_d(const void *in, void *out, size_t n)
{
    for (size_t i = 0; i < n; i++) ((double *)out)[i] = sin(((const double *)in)[i]);
}
static void libm_cos_d(const void *in, void *out, size_t n)
{
    for (size_t i = 0; i < n; i++) ((double *)out)[i] = cos(((const double *)in)[i]);
}
static void libm_sin_f(const void *in, void *out, size_t n)
{
    for (size_t i = 0; i < n; i++) ((float *)out)[i] = sinf(((const float *)in)[i]);
}
static void libm_cos_f(const void *in, void *out, size_t n)
{
    for (size_t i = 0; i < n; i++) ((float *)out)[i] = cosf(((const float *)in)[i]);
}

typedef struct peer {
    const char *id, *name, *isa;
    kernel_fn fn;
    void *out;
    size_t calls;
    double *samples;
} peer;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Seconds of `calls` calls back to back. */
static double sample(const peer *p, const void *in, size_t count, size_t calls)
{
    double start = now();
    for (size_t c = 0; c < calls; c++)
        p->fn(in, p->out, count);
    return now() - start;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile q of sorted v[0..n) by linear interpolation (statistics.quantiles'
 * "inclusive" method, as crtrig bench reports). */
static double quantile(const double *v, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t k = (size_t)pos;
    return k + 1 < n ? v[k] + (pos - (double)k) * (v[k + 1] - v[k]) : v[n - 1];
}

static int usage(void)
{
    fprintf(stderr, "usage: native_peers sin|cos float32|float64 COUNT INPUT OUTDIR MIN_SAMPLE_MS ROUNDS\n");
    return 2;
}

int main(int argc, char **argv)
{
    peer peers[8];
    int n_peers = 0, wide512, wide256, is_sin, is_double;
    size_t count, size, rounds;
    double min_sample;
    void *in;
    FILE *f;
    if (argc != 8)
        return usage();
    is_sin = strcmp(argv[1], "sin") == 0;
    is_double = strcmp(argv[2], "float64") == 0;
    if ((!is_sin && strcmp(argv[1], "cos") != 0) || (!is_double && strcmp(argv[2], "float32") != 0))
        return usage();
    count = strtoull(argv[3], NULL, 10);
    min_sample = atof(argv[6]) / 1000;
    rounds = strtoull(argv[7], NULL, 10);
    if (count == 0 || count > ((size_t)1 << 28) || rounds == 0 || rounds > 1000 || !(min_sample > 0))
        return usage();
    size = is_double ? 8 : 4;
    in = malloc(count * size);
    f = fopen(argv[4], "rb");
    if (!in || !f || fread(in, size, count, f) != count) {
        fprintf(stderr, "native_peers: cannot read %zu elements from %s\n", count, argv[4]);
        return 2;
    }
    fclose(f);

    __builtin_cpu_init();
    wide512 = __builtin_cpu_supports("avx512f");
    wide256 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#define ADD(id_, name_, isa_, fn_) \
    (peers[n_peers].id = (id_), peers[n_peers].name = (name_), peers[n_peers].isa = (isa_), \
     peers[n_peers].fn = (fn_), n_peers++)
#define PICK(s_d, c_d, s_f, c_f) (is_double ? (is_sin ? s_d : c_d) : (is_sin ? s_f : c_f))
#ifdef HAVE_SLEEF
    if (wide512) {
        ADD("sleef_u10", "SLEEF u10", "avx512f", PICK(sleef10_sin_d_avx512, sleef10_cos_d_avx512,
                                                      sleef10_sin_f_avx512, sleef10_cos_f_avx512));
        ADD("sleef_u35", "SLEEF u35", "avx512f", PICK(sleef35_sin_d_avx512, sleef35_cos_d_avx512,
                                                      sleef35_sin_f_avx512, sleef35_cos_f_avx512));
    } else if (wide256) {
        ADD("sleef_u10", "SLEEF u10", "avx2", PICK(sleef10_sin_d_avx2, sleef10_cos_d_avx2,
                                                   sleef10_sin_f_avx2, sleef10_cos_f_avx2));
        ADD("sleef_u35", "SLEEF u35", "avx2", PICK(sleef35_sin_d_avx2, sleef35_cos_d_avx2,
                                                   sleef35_sin_f_avx2, sleef35_cos_f_avx2));
    }
#endif
    if (wide512)
        ADD("libmvec", "glibc libmvec", "avx512f", PICK(mvec_sin_d_avx512, mvec_cos_d_avx512,
                                                         mvec_sin_f_avx512, mvec_cos_f_avx512));
    else if (wide256)
        ADD("libmvec", "glibc libmvec", "avx2", PICK(mvec_sin_d_avx2, mvec_cos_d_avx2,
                                                      mvec_sin_f_avx2, mvec_cos_f_avx2));
    ADD("libm", "glibc libm", "scalar", PICK(libm_sin_d, libm_cos_d, libm_sin_f, libm_cos_f));

    for (int k = 0; k < n_peers; k++) {
        peer *p = &peers[k];
        double seconds;
        p->out = malloc(count * size);
        p->samples = malloc(rounds * sizeof(double));
        if (!p->out || !p->samples) {
            fprintf(stderr, "native_peers: out of memory\n");
            return 2;
        }
        /* Calls per sample: the first call is also the warm-up; grow until a
         * sample lasts min_sample. */
        p->calls = 1;
        seconds = sample(p, in, count, 1);
        while (seconds < min_sample) {
            size_t more = seconds > 0 ? (size_t)(1.2 * min_sample / seconds * (double)p->calls) + 1
                                      : p->calls * 10;
            p->calls = more > p->calls * 100 ? p->calls * 100 : more;
            seconds = sample(p, in, count, p->calls);
        }
    }
    for (size_t r = 0; r < rounds; r++)
        for (int j = 0; j < n_peers; j++) {
            peer *p = &peers[(j + r) % (size_t)n_peers];
            p->samples[r] = sample(p, in, count, p->calls) / (double)p->calls;
        }
    for (int k = 0; k < n_peers; k++) {
        peer *p = &peers[k];
        char path[4096];
        double per = 1e9 / (double)count;
        qsort(p->samples, rounds, sizeof(double), compare_doubles);
        snprintf(path, sizeof path, "%s/%s.bin", argv[5], p->id);
        f = fopen(path, "wb");
        if (!f || fwrite(p->out, size, count, f) != count || fclose(f) != 0) {
            fprintf(stderr, "native_peers: cannot write %s\n", path);
            return 2;
        }
        printf("{\"id\": \"%s\", \"name\": \"%s\", \"isa\": \"%s\", \"ns_per_element\": %.6g, "
               "\"q1\": %.6g, \"q3\": %.6g, \"calls_per_sample\": %zu}\n",
               p->id, p->name, p->isa, quantile(p->samples, rounds, 0.5) * per,
               quantile(p->samples, rounds, 0.25) * per, quantile(p->samples, rounds, 0.75) * per,
               p->calls);
    }
    return 0;
}
