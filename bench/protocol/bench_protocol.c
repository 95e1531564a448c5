/*
 * A response into its output, end to end: a 10 MB EC2 DescribeInstances
 * answer (ec2Query XML, made from a seed by bench/xml's generator) read by
 * anvil's ec2Query protocol into the data model (XML parse, shape-driven
 * decoding, timestamps, defaults), against botocore's EC2 parser in Python
 * on the same bytes with the same botocore model (peer_botocore.py). The
 * two run alternately, run by run (a Python peer cannot share the process),
 * each timing the median of its rounds; the ratio is printed as
 * min-median-max over the runs.
 *
 * Usage: bench_protocol [--smoke] [--runs N] [--rounds K] [--mb M] EC2_SERVICE_2_JSON PEER_SCRIPT
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anvil/anvil.h"
#include "bench_stats.h"
#include "protocol/protocol_internal.h"

#include "../xml/gen_describe_instances.h"
#include "read_file.h"

struct s_anvil {
    const struct anvil__protocol *protocol;
    struct anvil__protocol_context ctx;
    const struct anvil_shape *op;
    struct anvil_arena *arena;
};

/* One read: the output's instance count, or -1. */
static long s_anvil_read(struct s_anvil *a, const char *body, size_t len) {
    anvil_arena_reset(a->arena);
    struct anvil__response res = {200, NULL, 0, body, len};
    struct anvil_operation_reply reply;
    if (anvil__response_read(a->protocol, &a->ctx, a->op, &res, a->arena, &reply, NULL) != ANVIL_OK) {
        fprintf(stderr, "bench_protocol: anvil could not read the response: %.*s\n", (int)reply.error.message.len,
                reply.error.message.ptr);
        return -1;
    }
    long count = 0;
    const struct anvil_json *reservations = anvil_json_object_get_cstr(&reply.output, "Reservations");
    for (size_t i = 0; i < anvil_json_len(reservations); i++) {
        count += (long)anvil_json_len(anvil_json_object_get_cstr(anvil_json_array_at(reservations, i), "Instances"));
    }
    return count;
}

static double s_anvil_median(struct s_anvil *a, const struct gen_doc *doc, int rounds, long *count) {
    double t[64];
    for (int r = 0; r < rounds; r++) {
        s_anvil_read(a, doc->data, doc->len); /* untimed: the allocator in the same state as for the peer */
        double start = bench_now();
        *count = s_anvil_read(a, doc->data, doc->len);
        t[r] = bench_now() - start;
    }
    return bench_median(t, (size_t)rounds);
}

/* The peer's median seconds (and its instance count), or -1 when Python or botocore is missing. */
static double s_peer(const char *script, const char *doc_path, int rounds, long *count) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "python3 '%s' '%s' %d 2>/dev/null", script, doc_path, rounds);
    FILE *p = popen(cmd, "r");
    double seconds = -1;
    if (p && fscanf(p, "%lf %ld", &seconds, count) != 2) {
        seconds = -1;
    }
    if (p) {
        pclose(p);
    }
    return seconds;
}

int main(int argc, char **argv) {
    bool smoke = false;
    int runs = 5, rounds = 9, mb = 10;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--smoke") == 0) {
            smoke = true;
        } else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--mb") == 0 && i + 1 < argc) {
            mb = atoi(argv[++i]);
        }
    }
    if (argc - i != 2) {
        fprintf(stderr, "usage: bench_protocol [--smoke] [--runs N] [--rounds K] [--mb M] EC2_SERVICE_2_JSON "
                        "PEER_SCRIPT\n");
        return 64;
    }
    runs = smoke ? 1 : runs < 3 ? 3 : runs > 50 ? 50 : runs;
    rounds = smoke ? 1 : rounds < 1 ? 1 : rounds > 64 ? 64 : rounds;
    size_t model_len = 0;
    char *model_text = anvil_test_read_file(argv[i], &model_len);
    if (!model_text) {
        printf("protocol: no botocore ec2 model at %s (python3-botocore); skipped\n", argv[i]);
        return 0;
    }
    struct anvil_model_source src = {argv[i], model_text, model_len, ANVIL_MODEL_FORMAT_AUTO};
    struct anvil_model *model = NULL;
    struct anvil_diag diag;
    if (anvil_model_assemble(NULL, &src, 1, NULL, &model, NULL, &diag) != ANVIL_OK) {
        fprintf(stderr, "bench_protocol: %s: %s\n", argv[i], diag.message);
        return 1;
    }
    free(model_text);
    struct s_anvil a = {0};
    for (size_t k = 0; k < anvil_model_shape_count(model); k++) {
        const struct anvil_shape *s = anvil_model_shape_at(model, k);
        if (anvil_shape_type(s) == ANVIL_SHAPE_SERVICE) {
            a.ctx.service = s;
        } else if (anvil_sv_eq_cstr(anvil_shape_name(s), "DescribeInstances")) {
            a.op = s;
        }
    }
    a.ctx.model = model;
    a.protocol = a.ctx.service ? anvil__protocol_of(a.ctx.service) : NULL;
    if (!a.protocol || !a.op || anvil_arena_new(NULL, NULL, &a.arena) != ANVIL_OK) {
        fprintf(stderr, "bench_protocol: the model has no ec2Query service with DescribeInstances\n");
        return 1;
    }
    struct gen_doc doc = gen_describe_instances(smoke ? 64 << 10 : (size_t)mb << 20, 42);
    char doc_path[] = "/tmp/anvil-bench-protocol-XXXXXX";
    int fd = mkstemp(doc_path);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f || fwrite(doc.data, 1, doc.len, f) != doc.len) {
        fprintf(stderr, "bench_protocol: cannot write %s\n", doc_path);
        return 1;
    }
    fclose(f);
    double anvil_s[50], peer_s[50], ratio[50];
    size_t ratios = 0;
    long anvil_count = 0, peer_count = -1;
    for (int r = 0; r < runs; r++) {
        /* Alternate which goes first, run by run. */
        if (r % 2 == 0) {
            anvil_s[r] = s_anvil_median(&a, &doc, rounds, &anvil_count);
            peer_s[r] = s_peer(argv[i + 1], doc_path, rounds, &peer_count);
        } else {
            peer_s[r] = s_peer(argv[i + 1], doc_path, rounds, &peer_count);
            anvil_s[r] = s_anvil_median(&a, &doc, rounds, &anvil_count);
        }
        if (peer_s[r] > 0 && anvil_s[r] > 0) {
            ratio[ratios++] = peer_s[r] / anvil_s[r];
        }
    }
    remove(doc_path);
    int status = 0;
    if (anvil_count <= 0 || (peer_count >= 0 && peer_count != anvil_count)) {
        fprintf(stderr, "bench_protocol: anvil read %ld instances, botocore %ld\n", anvil_count, peer_count);
        status = 1;
    }
    double mbytes = (double)doc.len / 1e6;
    if (smoke) {
        printf("protocol (smoke): %ld instances read by anvil%s\n", anvil_count,
               peer_count >= 0 ? " and by botocore, the same" : "; botocore peer not available");
    } else {
        struct bench_range ar = bench_range_of(anvil_s, (size_t)runs);
        char text[64];
        printf("protocol: EC2 DescribeInstances, %.1f MB, %ld instances, %d runs x %d rounds\n", mbytes, anvil_count,
               runs, rounds);
        printf("  anvil ec2Query -> output: %.1f-%.1f-%.1f ms (%.0f MB/s at the median)\n", ar.min * 1e3,
               ar.median * 1e3, ar.max * 1e3, mbytes / ar.median);
        if (ratios) {
            struct bench_range pr = bench_range_of(peer_s, (size_t)runs);
            printf("  botocore EC2QueryParser: %.0f-%.0f-%.0f ms\n", pr.min * 1e3, pr.median * 1e3, pr.max * 1e3);
            printf("  anvil over botocore: %s\n", bench_range_text(bench_range_of(ratio, ratios), text, sizeof text));
        } else {
            printf("  botocore peer not available (python3-botocore)\n");
        }
    }
    free(doc.data);
    anvil_arena_destroy(a.arena);
    anvil_model_destroy(model);
    return status;
}
