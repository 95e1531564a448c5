/*
 * Whole-buffer gzip at the default level (6), zlib against libdeflate, on
 * JSON request bodies of 10 KB, 1 MB and 10 MB (CloudWatch PutMetricData-
 * like records): throughput and compression ratio. The two alternate round
 * by round in this process (who goes first swaps); a run keeps each one's
 * median of 7 rounds, and the speed ratio is min-median-max over the runs.
 * The winner serves anvil_gzip() for whole buffers (docs/performance.md).
 * A benchmark, not a test: it reads the real clock (--smoke: 10 KB once,
 * both outputs checked by inflating them; no time reported).
 * Usage: bench_compress [--runs N] [--smoke]
 */

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "bench_stats.h"

static double s_now(void) {
    return bench_now();
}

/* JSON metric records with a seeded variety of names, values and dimensions. */
static char *s_payload(size_t size, size_t *len) {
    char *out = malloc(size + 512);
    size_t at = 0;
    uint64_t x = 88172645463325252ULL;
    at += (size_t)sprintf(out, "{\"Namespace\":\"App/Orders\",\"MetricData\":[");
    for (int i = 0; at < size; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        at += (size_t)sprintf(
            out + at,
            "%s{\"MetricName\":\"Latency%u\",\"Timestamp\":%llu,\"Value\":%.3f,\"Unit\":\"Milliseconds\","
            "\"Dimensions\":[{\"Name\":\"Host\",\"Value\":\"host-%03u\"},{\"Name\":\"Route\",\"Value\":\"/api/v%u/orders\"}]}",
            i ? "," : "", (unsigned)(x % 16), 1700000000000ULL + (unsigned long long)i * 1000,
            (double)(x % 100000) / 7.0, (unsigned)(x >> 20) % 200, (unsigned)(x >> 40) % 3);
    }
    at += (size_t)sprintf(out + at, "]}");
    *len = at;
    return out;
}

static size_t s_zlib(const char *in, size_t len, unsigned char *out, size_t cap) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        return 0;
    }
    z.next_in = (unsigned char *)(uintptr_t)in;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    size_t n = rc == Z_STREAM_END ? z.total_out : 0;
    deflateEnd(&z);
    return n;
}

static size_t s_libdeflate(struct libdeflate_compressor *c, const char *in, size_t len, unsigned char *out,
                           size_t cap) {
    return libdeflate_gzip_compress(c, in, len, out, cap);
}

/* Whether `gz` (gzip) inflates back to `in`. */
static bool s_round_trips(const unsigned char *gz, size_t n, const char *in, size_t len) {
    unsigned char *back = malloc(len + 1);
    z_stream z;
    memset(&z, 0, sizeof z);
    bool ok = back && inflateInit2(&z, 15 + 16) == Z_OK;
    if (ok) {
        z.next_in = (unsigned char *)(uintptr_t)gz;
        z.avail_in = (uInt)n;
        z.next_out = back;
        z.avail_out = (uInt)len + 1;
        ok = inflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out == len && memcmp(back, in, len) == 0;
        inflateEnd(&z);
    }
    free(back);
    return ok;
}

#define S_ROUNDS 7

int main(int argc, char **argv) {
    bool smoke = bench_take_smoke(&argc, argv);
    int runs = bench_take_int(&argc, argv, "--runs", 5, 1, 50);
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--runs N] [--smoke]\n", argv[0]);
        return 2;
    }
    static const size_t sizes[] = {10 * 1000, 1000 * 1000, 10 * 1000 * 1000};
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
    if (!smoke) {
        printf("== gzip, whole buffer, level 6 (%d runs of %d alternating rounds)\n", runs, S_ROUNDS);
        printf("  %-8s %-12s %10s %8s %22s\n", "payload", "library", "MB/s", "ratio", "libdeflate faster");
    }
    int failed = 0;
    for (size_t s = 0; s < (smoke ? 1u : 3u); s++) {
        size_t len;
        char *in = s_payload(sizes[s], &len);
        size_t cap = len + len / 10 + 1024;
        unsigned char *out[2] = {malloc(cap), malloc(cap)};
        size_t n[2] = {0, 0};
        int reps = smoke ? 1 : sizes[s] < 100000 ? 200 : sizes[s] < 5000000 ? 5 : 1;
        double median[2][50], speedup[50];
        for (int run = 0; run < (smoke ? 1 : runs); run++) {
            double t[2][S_ROUNDS];
            for (int r = 0; r < (smoke ? 1 : S_ROUNDS); r++) {
                for (int k = 0; k < 2; k++) {
                    int lib = (k + r) % 2;
                    double start = s_now();
                    for (int i = 0; i < reps; i++) {
                        n[lib] = lib == 0 ? s_zlib(in, len, out[0], cap) : s_libdeflate(c, in, len, out[1], cap);
                    }
                    t[lib][r] = (s_now() - start) / reps;
                }
            }
            median[0][run] = bench_median(t[0], smoke ? 1 : S_ROUNDS);
            median[1][run] = bench_median(t[1], smoke ? 1 : S_ROUNDS);
            speedup[run] = median[0][run] / median[1][run];
        }
        for (int lib = 0; lib < 2; lib++) {
            if (!n[lib] || !s_round_trips(out[lib], n[lib], in, len)) {
                fprintf(stderr, "%s: the gzip output does not inflate back\n", lib ? "libdeflate" : "zlib");
                failed = 1;
            }
        }
        if (!smoke) {
            const char *label = sizes[s] == 10000 ? "10 KB" : sizes[s] == 1000000 ? "1 MB" : "10 MB";
            char range[48];
            printf("  %-8s %-12s %10.1f %7.2fx\n", label, "zlib",
                   (double)len / bench_median(median[0], (size_t)runs) / 1e6, (double)len / (double)n[0]);
            printf("  %-8s %-12s %10.1f %7.2fx %22s\n", "", "libdeflate",
                   (double)len / bench_median(median[1], (size_t)runs) / 1e6, (double)len / (double)n[1],
                   bench_range_text(bench_range_of(speedup, (size_t)runs), range, sizeof range));
        }
        free(in);
        free(out[0]);
        free(out[1]);
    }
    if (smoke) {
        printf("zlib and libdeflate gzip outputs inflate back\n");
    }
    libdeflate_free_compressor(c);
    return failed;
}
