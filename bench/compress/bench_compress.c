/*
 * Whole-buffer gzip at the default level (6), zlib against libdeflate, on
 * JSON request bodies of 10 KB, 1 MB and 10 MB (CloudWatch PutMetricData-
 * like records): throughput and compression ratio, median of 7 runs. The
 * winner serves anvil_gzip() for whole buffers (docs/performance.md).
 * A benchmark, not a test: it reads the real clock.
 */

#include <libdeflate.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static double s_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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

static int s_cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void) {
    static const size_t sizes[] = {10 * 1000, 1000 * 1000, 10 * 1000 * 1000};
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(6);
    printf("== gzip, whole buffer, level 6 (median of 7 runs)\n");
    printf("  %-8s %-12s %10s %8s %12s\n", "payload", "library", "MB/s", "ratio", "libdeflate is");
    for (size_t s = 0; s < 3; s++) {
        size_t len;
        char *in = s_payload(sizes[s], &len);
        size_t cap = len + len / 10 + 1024;
        unsigned char *out = malloc(cap);
        double t[2][7];
        size_t n[2] = {0, 0};
        int reps = sizes[s] < 100000 ? 200 : sizes[s] < 5000000 ? 5 : 1;
        for (int r = 0; r < 7; r++) {
            double start = s_now();
            for (int k = 0; k < reps; k++) {
                n[0] = s_zlib(in, len, out, cap);
            }
            t[0][r] = (s_now() - start) / reps;
            start = s_now();
            for (int k = 0; k < reps; k++) {
                n[1] = s_libdeflate(c, in, len, out, cap);
            }
            t[1][r] = (s_now() - start) / reps;
        }
        qsort(t[0], 7, sizeof(double), s_cmp);
        qsort(t[1], 7, sizeof(double), s_cmp);
        const char *label = sizes[s] == 10000 ? "10 KB" : sizes[s] == 1000000 ? "1 MB" : "10 MB";
        printf("  %-8s %-12s %10.1f %7.2fx %12s\n", label, "zlib", (double)len / t[0][3] / 1e6,
               (double)len / (double)n[0], "");
        printf("  %-8s %-12s %10.1f %7.2fx %11.2fx faster\n", "", "libdeflate", (double)len / t[1][3] / 1e6,
               (double)len / (double)n[1], t[0][3] / t[1][3]);
        free(in);
        free(out);
    }
    libdeflate_free_compressor(c);
    return 0;
}
