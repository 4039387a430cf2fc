/* A test driver for the C core alone, built for two machines whose results
 * are compared bit for bit (tools/check_aarch64.sh: x86-64 natively, aarch64
 * under qemu-user).
 *
 *   driver --write FILE [--target NAME]     compute every group, write their outputs
 *   driver --compare FILE [--target NAME]   compute every group, compare with FILE
 *
 * The inputs come from a fixed-seed generator (splitmix64, integer arithmetic
 * only), so both machines compute the same inputs; only the outputs are
 * stored.  Groups:
 *   sin/cos of every float16 and every bfloat16 bit pattern (NaN and inf too);
 *   sin/cos of float32: 2,000,000 random bit patterns, 1,000,000 values uniform
 *     in [-pi, pi], and hard cases (from the literature and tests/test_sincos.py,
 *     float32 neighbours of k pi/2 and of the pass's range limits), each with
 *     its neighbours and negation;
 *   sin/cos of float64 (1,000,000 random bit patterns, 1,000,000 in [-pi, pi]),
 *     when the core has a float64 loop: crtrig_trig_strided answers
 *     CRTRIG_EINVAL for CRTRIG_FLOAT64 until it does, and the group is then
 *     reported as absent on both machines;
 *   every window kind, periodic and symmetric, for every output dtype, over a
 *     set of sizes (0 to 20, powers of two and their neighbours, up to 65537;
 *     100003 and 1000003 for float32 and float64), and the general Hamming
 *     window for alpha = 27/50 (no cancellation) and 2/5 (a sign change).
 * Exit status: 0 identical (or written), 1 some output differs, 2 usage, I/O
 * or core errors, or files that do not describe the same groups.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crtrig/crtrig.h"

#define NAME_LEN 64
static const char MAGIC[16] = "crtrig-bits-v1\n";

typedef struct group {
    char name[NAME_LEN];
    size_t item;      /* bytes per output element */
    size_t count;     /* elements */
    unsigned char *in;   /* inputs (sin/cos), item bytes each; NULL for windows */
    unsigned char *out;  /* outputs */
    char format;      /* of the outputs: 'h' float16, 'b' bfloat16, 'f' float32, 'd' float64,
                         'i' integers (for telling NaNs apart in reports) */
} group;

static void die(const char *what)
{
    fprintf(stderr, "driver: %s\n", what);
    exit(2);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

/* splitmix64: integer arithmetic only, the same sequence everywhere. */
static uint64_t rng_state = 0x2026c0de5eedULL;
static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A double uniform in [-pi, pi): (k / 2^52 - 1) * pi with k < 2^53, every step
 * exact or correctly rounded (contraction is off), so the same on every machine. */
static double uniform_pi(void)
{
    const double pi = 0x1.921fb54442d18p+1;
    return ((double)(next_u64() >> 11) * 0x1p-52 - 1.0) * pi;
}

static uint32_t f32_bits(float f)
{
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    return w;
}

/* ------------------------------------------------------------------------ */
/* Groups */

static group *groups;
static size_t n_groups, cap_groups;

static group *new_group(const char *name, size_t item, size_t count, int with_input, char format)
{
    group *g;
    if (n_groups == cap_groups) {
        cap_groups = cap_groups ? 2 * cap_groups : 64;
        groups = realloc(groups, cap_groups * sizeof *groups);
        if (!groups)
            die("out of memory");
    }
    g = &groups[n_groups++];
    memset(g, 0, sizeof *g);
    snprintf(g->name, NAME_LEN, "%s", name);
    g->item = item;
    g->count = count;
    g->in = with_input ? xmalloc(item * count) : NULL;
    g->out = xmalloc(item * count);
    g->format = format;
    return g;
}

static const char *const FUNC_NAMES[2] = {"sin", "cos"};

static void run_trig(group *g, crtrig_trig_func func, crtrig_dtype dtype)
{
    int rc = crtrig_trig_strided(func, dtype, (const char *)g->in, (ptrdiff_t)g->item, (char *)g->out,
                                 (ptrdiff_t)g->item, g->count);
    if (rc != CRTRIG_OK) {
        fprintf(stderr, "driver: crtrig_trig_strided failed (%d) for %s\n", rc, g->name);
        exit(2);
    }
}

static void add_16bit_groups(void)
{
    static const struct { const char *name; crtrig_dtype dtype; char format; } fmts[2] = {
        {"float16", CRTRIG_FLOAT16, 'h'}, {"bfloat16", CRTRIG_BFLOAT16, 'b'}};
    int f, func;
    for (f = 0; f < 2; f++)
        for (func = 0; func < 2; func++) {
            char name[NAME_LEN];
            group *g;
            uint32_t i;
            snprintf(name, sizeof name, "%s %s all 65536", FUNC_NAMES[func], fmts[f].name);
            g = new_group(name, 2, 65536, 1, fmts[f].format);
            for (i = 0; i < 65536; i++) {
                uint16_t h = (uint16_t)i;
                memcpy(g->in + 2 * i, &h, 2);
            }
            run_trig(g, (crtrig_trig_func)func, fmts[f].dtype);
        }
}

/* Hard float32 inputs: the literature's and tests/test_sincos.py's, float32
 * neighbours of k pi/2, and the first pass's range limits (2^-120, 2^24). */
static size_t hard_float32(float *xs, size_t cap)
{
    static const char *const HEX[] = {
        "0x1.33333p+13", "0x1.d4a60ap+3", "0x1.921fb6p+0", "0x1.921fb6p+1", "0x1.921fb6p+2",
        "0x1.2d97c8p+3", "0x1.fffffep+127", "0x1p-149", "0x1p-126", "0x1.fffffcp-127",
        "0x1.6a09e6p-1", "0x1p+24", "0x1.000002p+24", "0x1.fffffep+23", "0x1.3170fp+63",
        "0x1.2b9622p+67", "0x1.2d97c8p+2", "0x1p-120", "0x1p-121", "0x1.5fd7fep+100",
        "0x1.921fb6p+127", "0x1.0p+0", "0x1.0p-1"};
    static const float DECIMAL[] = {1e-8f, 3e-4f, 0.2093505859375f, 300.0f, 0.0584716796875f};
    const double half_pi = 0x1.921fb54442d18p+0;
    size_t n = 0, i;
    int k, d;
    float base[64 + 4096];
    size_t n_base = 0;
    for (i = 0; i < sizeof HEX / sizeof HEX[0]; i++)
        base[n_base++] = strtof(HEX[i], NULL);
    for (i = 0; i < sizeof DECIMAL / sizeof DECIMAL[0]; i++)
        base[n_base++] = DECIMAL[i];
    for (k = 1; k <= 4000; k++)  /* the float32 nearest k pi/2: the smallest reduced arguments */
        base[n_base++] = (float)(k * half_pi);
    for (i = 0; i < n_base; i++) {
        uint32_t w = f32_bits(base[i]);
        for (d = -2; d <= 2; d++) {  /* the value, its neighbours, and their negations */
            uint32_t v = (uint32_t)((int64_t)w + d);
            if (((v & 0x7fffffffu) > 0x7f800000u) || n + 2 > cap)
                continue;
            v &= 0x7fffffffu;
            memcpy(&xs[n++], &v, 4);
            v |= 0x80000000u;
            memcpy(&xs[n++], &v, 4);
        }
    }
    return n;
}

static void add_float32_groups(void)
{
    int func;
    for (func = 0; func < 2; func++) {
        char name[NAME_LEN];
        group *g;
        size_t i, n;
        float *hard;
        snprintf(name, sizeof name, "%s float32 random bits", FUNC_NAMES[func]);
        g = new_group(name, 4, 2000000, 1, 'f');
        for (i = 0; i < g->count; i++) {
            uint32_t w = (uint32_t)(next_u64() >> 32);
            memcpy(g->in + 4 * i, &w, 4);
        }
        run_trig(g, (crtrig_trig_func)func, CRTRIG_FLOAT32);

        snprintf(name, sizeof name, "%s float32 [-pi, pi]", FUNC_NAMES[func]);
        g = new_group(name, 4, 1000000, 1, 'f');
        for (i = 0; i < g->count; i++) {
            float x = (float)uniform_pi();
            memcpy(g->in + 4 * i, &x, 4);
        }
        run_trig(g, (crtrig_trig_func)func, CRTRIG_FLOAT32);

        hard = xmalloc(64000 * sizeof *hard);
        n = hard_float32(hard, 64000);
        snprintf(name, sizeof name, "%s float32 hard cases", FUNC_NAMES[func]);
        g = new_group(name, 4, n, 1, 'f');
        memcpy(g->in, hard, 4 * n);
        free(hard);
        run_trig(g, (crtrig_trig_func)func, CRTRIG_FLOAT32);
    }
}

/* Whether the core has a float64 sin/cos loop: CRTRIG_EINVAL until it does. */
static int has_float64_trig(void)
{
    double x = 0.5, y = 0.0;
    return crtrig_trig_strided(CRTRIG_SIN, CRTRIG_FLOAT64, (const char *)&x, 8, (char *)&y, 8, 1) ==
           CRTRIG_OK;
}

static void add_float64_groups(void)
{
    int func;
    for (func = 0; func < 2; func++) {
        char name[NAME_LEN];
        group *g;
        size_t i;
        snprintf(name, sizeof name, "%s float64 random bits", FUNC_NAMES[func]);
        g = new_group(name, 8, 1000000, 1, 'd');
        for (i = 0; i < g->count; i++) {
            uint64_t w = next_u64();
            memcpy(g->in + 8 * i, &w, 8);
        }
        run_trig(g, (crtrig_trig_func)func, CRTRIG_FLOAT64);
        snprintf(name, sizeof name, "%s float64 [-pi, pi]", FUNC_NAMES[func]);
        g = new_group(name, 8, 1000000, 1, 'd');
        for (i = 0; i < g->count; i++) {
            double x = uniform_pi();
            memcpy(g->in + 8 * i, &x, 8);
        }
        run_trig(g, (crtrig_trig_func)func, CRTRIG_FLOAT64);
    }
}

static const struct { const char *name; size_t item; char format; } DTYPES[CRTRIG_NUM_DTYPES] = {
    {"float16", 2, 'h'}, {"bfloat16", 2, 'b'}, {"float32", 4, 'f'}, {"float64", 8, 'd'},
    {"int8", 1, 'i'},    {"uint8", 1, 'i'},    {"int16", 2, 'i'},   {"uint16", 2, 'i'},
    {"int32", 4, 'i'},   {"uint32", 4, 'i'},   {"int64", 8, 'i'},   {"uint64", 8, 'i'}};

static void add_window_groups(void)
{
    static const struct { const char *name; int kind; uint64_t num, den; } KINDS[5] = {
        {"hann", CRTRIG_HANN, 0, 0}, {"hamming", CRTRIG_HAMMING, 0, 0}, {"blackman", CRTRIG_BLACKMAN, 0, 0},
        {"general_hamming 27/50", CRTRIG_GENERAL_HAMMING, 27, 50},
        {"general_hamming 2/5", CRTRIG_GENERAL_HAMMING, 2, 5}};
    static const int64_t SIZES[] = {0,    1,    2,    3,    4,    5,     6,     7,     8,    9,
                                    10,   11,   12,   13,   14,   15,    16,    17,    18,   19,
                                    20,   31,   32,   33,   63,   64,    65,    100,   127,  128,
                                    129,  255,  256,  257,  511,  512,   513,   1000,  1023, 1024,
                                    1025, 4095, 4096, 4097, 8191, 65535, 65536, 65537};
    static const int64_t LARGE[] = {100003, 1000003};  /* float32 and float64 only */
    const size_t n_sizes = sizeof SIZES / sizeof SIZES[0];
    int kind, periodic, dtype;
    for (kind = 0; kind < 5; kind++)
        for (periodic = 1; periodic >= 0; periodic--)
            for (dtype = 0; dtype < CRTRIG_NUM_DTYPES; dtype++) {
                char name[NAME_LEN];
                group *g;
                size_t total = 0, i, offset = 0;
                int large = dtype == CRTRIG_FLOAT32 || dtype == CRTRIG_FLOAT64;
                for (i = 0; i < n_sizes; i++)
                    total += (size_t)SIZES[i];
                if (large)
                    total += (size_t)(LARGE[0] + LARGE[1]);
                snprintf(name, sizeof name, "%s window %s %s", KINDS[kind].name,
                         periodic ? "periodic" : "symmetric", DTYPES[dtype].name);
                g = new_group(name, DTYPES[dtype].item, total, 0, DTYPES[dtype].format);
                for (i = 0; i < n_sizes + (large ? 2 : 0); i++) {
                    int64_t size = i < n_sizes ? SIZES[i] : LARGE[i - n_sizes];
                    char *out = (char *)g->out + offset * g->item;
                    int rc = KINDS[kind].kind == CRTRIG_GENERAL_HAMMING
                                 ? crtrig_window_general_hamming(KINDS[kind].num, KINDS[kind].den, size,
                                                                 periodic, (crtrig_dtype)dtype, out,
                                                                 (ptrdiff_t)g->item)
                                 : crtrig_window((crtrig_window_kind)KINDS[kind].kind, size, periodic,
                                                 (crtrig_dtype)dtype, out, (ptrdiff_t)g->item);
                    if (rc != CRTRIG_OK) {
                        fprintf(stderr, "driver: crtrig_window failed (%d) for %s size %lld\n", rc,
                                name, (long long)size);
                        exit(2);
                    }
                    offset += (size_t)size;
                }
            }
}

/* ------------------------------------------------------------------------ */
/* Writing and comparing */

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static uint64_t load_bits(const unsigned char *p, size_t item)
{
    uint64_t v = 0;
    memcpy(&v, p, item);  /* both machines are little-endian */
    return v;
}

/* NaN test on the raw bits of an output. */
static int is_nan_bits(uint64_t v, char format)
{
    switch (format) {
    case 'h': return (v & 0x7fffu) > 0x7c00u;
    case 'b': return (v & 0x7fffu) > 0x7f80u;
    case 'f': return (v & 0x7fffffffu) > 0x7f800000u;
    case 'd': return (v & 0x7fffffffffffffffULL) > 0x7ff0000000000000ULL;
    default: return 0;
    }
}

static int write_file(const char *path)
{
    FILE *f = fopen(path, "wb");
    size_t i;
    if (!f)
        die("cannot open the output file");
    fwrite(MAGIC, 1, sizeof MAGIC, f);
    for (i = 0; i < n_groups; i++) {
        uint64_t item = groups[i].item, count = groups[i].count;
        fwrite(groups[i].name, 1, NAME_LEN, f);
        fwrite(&item, sizeof item, 1, f);
        fwrite(&count, sizeof count, 1, f);
        if (fwrite(groups[i].out, groups[i].item, groups[i].count, f) != groups[i].count)
            die("write failed");
    }
    if (fclose(f) != 0)
        die("write failed");
    return 0;
}

static int compare_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    char magic[sizeof MAGIC];
    size_t i, groups_differing = 0;
    if (!f)
        die("cannot open the reference file");
    if (fread(magic, 1, sizeof magic, f) != sizeof magic || memcmp(magic, MAGIC, sizeof MAGIC) != 0)
        die("the reference file is not a crtrig-bits file");
    for (i = 0; i < n_groups; i++) {
        group *g = &groups[i];
        char name[NAME_LEN];
        uint64_t item, count;
        unsigned char *ref;
        size_t j, differ = 0, nan_bits_only = 0, shown = 0;
        if (fread(name, 1, NAME_LEN, f) != NAME_LEN || fread(&item, sizeof item, 1, f) != 1 ||
            fread(&count, sizeof count, 1, f) != 1)
            die("the reference file ends early: it has fewer groups (a core without float64 sin/cos?)");
        if (strncmp(name, g->name, NAME_LEN) != 0 || item != g->item || count != g->count) {
            fprintf(stderr, "driver: group %zu is '%s' here and '%.64s' in the reference\n", i, g->name,
                    name);
            exit(2);
        }
        ref = xmalloc(g->item * g->count);
        if (fread(ref, g->item, g->count, f) != g->count)
            die("the reference file ends early");
        for (j = 0; j < g->count; j++) {
            uint64_t a = load_bits(g->out + j * g->item, g->item), b = load_bits(ref + j * g->item, g->item);
            if (a == b)
                continue;
            differ++;
            if (is_nan_bits(a, g->format) && is_nan_bits(b, g->format))
                nan_bits_only++;
            if (shown < 5) {
                shown++;
                if (g->in)
                    printf("    element %zu: input 0x%0*llx gives 0x%0*llx here, 0x%0*llx in the reference\n",
                           j, (int)(2 * g->item), (unsigned long long)load_bits(g->in + j * g->item, g->item),
                           (int)(2 * g->item), (unsigned long long)a, (int)(2 * g->item),
                           (unsigned long long)b);
                else
                    printf("    element %zu: 0x%0*llx here, 0x%0*llx in the reference\n", j,
                           (int)(2 * g->item), (unsigned long long)a, (int)(2 * g->item),
                           (unsigned long long)b);
            }
        }
        free(ref);
        if (differ) {
            groups_differing++;
            printf("%s: %zu elements, %zu DIFFER (%zu of them NaN in both, with other bits)\n", g->name,
                   g->count, differ, nan_bits_only);
        } else {
            printf("%s: %zu elements, identical\n", g->name, g->count);
        }
    }
    if (fgetc(f) != EOF)
        die("the reference file has more groups than this core computes (float64 sin/cos there only?)");
    fclose(f);
    printf("%zu groups, %zu with differences\n", n_groups, groups_differing);
    return groups_differing ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *write_path = NULL, *compare_path = NULL, *target = NULL, *chosen;
    size_t i, elements = 0;
    int a, f64;
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--write") && a + 1 < argc)
            write_path = argv[++a];
        else if (!strcmp(argv[a], "--compare") && a + 1 < argc)
            compare_path = argv[++a];
        else if (!strcmp(argv[a], "--target") && a + 1 < argc)
            target = argv[++a];
        else
            die("usage: driver --write FILE | --compare FILE [--target NAME]");
    }
    if (!write_path == !compare_path)
        die("usage: driver --write FILE | --compare FILE [--target NAME]");
    chosen = crtrig_init(target);
    if (!chosen)
        die("this target is unknown, or this CPU or build lacks it");
    f64 = has_float64_trig();
    printf("target %s; floating-point environment: %s; float64 sin/cos: %s\n", chosen,
           crtrig_fpenv_method(), f64 ? "yes" : "not in this core");
    add_16bit_groups();
    add_float32_groups();
    if (f64)
        add_float64_groups();
    add_window_groups();
    for (i = 0; i < n_groups; i++)
        elements += groups[i].count;
    if (write_path) {
        for (i = 0; i < n_groups; i++)
            printf("%s: %zu elements, fnv1a64 %016llx\n", groups[i].name, groups[i].count,
                   (unsigned long long)fnv1a(groups[i].out, groups[i].item * groups[i].count));
        printf("%zu groups, %zu elements written to %s\n", n_groups, elements, write_path);
        return write_file(write_path);
    }
    return compare_file(compare_path);
}
