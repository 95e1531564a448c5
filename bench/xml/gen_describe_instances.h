#ifndef ANVIL_BENCH_GEN_DESCRIBE_INSTANCES_H
#define ANVIL_BENCH_GEN_DESCRIBE_INSTANCES_H

/*
 * An EC2 DescribeInstances response as ec2Query sends it (indented by four
 * spaces, xmlns on the root, one <item> per reservation and per instance),
 * made in memory from a seed (splitmix64), never stored: about 2 KB an
 * instance, so 10 MB is about 5,000 instances. The values vary as real ones
 * do: ids, addresses and times, a few tags with '&' (escaped) or non-ASCII
 * text, empty elements written <a/>.
 */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gen_doc {
    char *data;
    size_t len, cap;
    uint64_t state;
    int depth;
};

static uint64_t gen_next(struct gen_doc *g) {
    uint64_t z = (g->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static unsigned gen_below(struct gen_doc *g, unsigned n) {
    return (unsigned)(gen_next(g) % n);
}

static void gen_put(struct gen_doc *g, const char *s, size_t n) {
    if (g->len + n + 1 > g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 1 << 16;
        while (cap < g->len + n + 1) {
            cap *= 2;
        }
        char *data = realloc(g->data, cap);
        if (!data) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        g->data = data;
        g->cap = cap;
    }
    memcpy(g->data + g->len, s, n);
    g->len += n;
    g->data[g->len] = '\0';
}

static void gen_printf(struct gen_doc *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void gen_printf(struct gen_doc *g, const char *fmt, ...) {
    char buf[512];
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    gen_put(g, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void gen_indent(struct gen_doc *g) {
    static const char spaces[] = "\n                                                                ";
    gen_put(g, spaces, 1 + (size_t)g->depth * 4);
}

static void gen_open(struct gen_doc *g, const char *name) {
    gen_indent(g);
    gen_printf(g, "<%s>", name);
    g->depth++;
}

static void gen_close(struct gen_doc *g, const char *name) {
    g->depth--;
    gen_indent(g);
    gen_printf(g, "</%s>", name);
}

static void gen_leaf(struct gen_doc *g, const char *name, const char *value) {
    gen_indent(g);
    if (*value) {
        gen_printf(g, "<%s>%s</%s>", name, value, name);
    } else {
        gen_printf(g, "<%s/>", name);
    }
}

static const char *gen_hex(struct gen_doc *g, const char *prefix, int digits, char *out) {
    size_t n = strlen(prefix);
    memcpy(out, prefix, n);
    for (int i = 0; i < digits; i++) {
        out[n + (size_t)i] = "0123456789abcdef"[gen_below(g, 16)];
    }
    out[n + (size_t)digits] = '\0';
    return out;
}

static void gen_instance(struct gen_doc *g, const char *subnet, const char *vpc) {
    static const char *const types[] = {"t3.micro", "m5.large", "c6g.xlarge", "r6i.2xlarge", "t2.nano"};
    static const char *const states[] = {"running", "stopped", "pending", "stopping"};
    static const char *const zones[] = {"us-east-1a", "us-east-1b", "us-east-1c", "eu-west-1a"};
    static const char *const names[] = {"web", "api", "batch", "db-replica", "cache"};
    static const char *const teams[] = {"R&amp;D", "Ops &amp; Infra", "Zürich team", "data", "payments"};
    char a[64], b[64], c[128];
    unsigned state = gen_below(g, 4);
    unsigned ip[4] = {10, gen_below(g, 256), gen_below(g, 256), 1 + gen_below(g, 254)};
    gen_open(g, "item");
    gen_leaf(g, "instanceId", gen_hex(g, "i-", 17, a));
    gen_leaf(g, "imageId", gen_hex(g, "ami-", 17, a));
    gen_open(g, "instanceState");
    snprintf(a, sizeof a, "%u", state * 16);
    gen_leaf(g, "code", a);
    gen_leaf(g, "name", states[state]);
    gen_close(g, "instanceState");
    snprintf(c, sizeof c, "ip-%u-%u-%u-%u.ec2.internal", ip[0], ip[1], ip[2], ip[3]);
    gen_leaf(g, "privateDnsName", c);
    gen_leaf(g, "dnsName", "");
    gen_leaf(g, "reason", "");
    gen_leaf(g, "keyName", "deploy-key");
    gen_leaf(g, "amiLaunchIndex", "0");
    gen_leaf(g, "productCodes", "");
    gen_leaf(g, "instanceType", types[gen_below(g, 5)]);
    snprintf(a, sizeof a, "2024-%02u-%02uT%02u:%02u:%02u.000Z", 1 + gen_below(g, 12), 1 + gen_below(g, 28),
             gen_below(g, 24), gen_below(g, 60), gen_below(g, 60));
    gen_leaf(g, "launchTime", a);
    gen_open(g, "placement");
    gen_leaf(g, "availabilityZone", zones[gen_below(g, 4)]);
    gen_leaf(g, "groupName", "");
    gen_leaf(g, "tenancy", "default");
    gen_close(g, "placement");
    gen_open(g, "monitoring");
    gen_leaf(g, "state", "disabled");
    gen_close(g, "monitoring");
    gen_leaf(g, "subnetId", subnet);
    gen_leaf(g, "vpcId", vpc);
    snprintf(c, sizeof c, "%u.%u.%u.%u", ip[0], ip[1], ip[2], ip[3]);
    gen_leaf(g, "privateIpAddress", c);
    gen_leaf(g, "sourceDestCheck", "true");
    gen_open(g, "groupSet");
    gen_open(g, "item");
    gen_leaf(g, "groupId", gen_hex(g, "sg-", 17, a));
    gen_leaf(g, "groupName", "default");
    gen_close(g, "item");
    gen_close(g, "groupSet");
    gen_leaf(g, "architecture", gen_below(g, 3) ? "x86_64" : "arm64");
    gen_leaf(g, "rootDeviceType", "ebs");
    gen_leaf(g, "rootDeviceName", "/dev/xvda");
    gen_open(g, "blockDeviceMapping");
    gen_open(g, "item");
    gen_leaf(g, "deviceName", "/dev/xvda");
    gen_open(g, "ebs");
    gen_leaf(g, "volumeId", gen_hex(g, "vol-", 17, a));
    gen_leaf(g, "status", "attached");
    gen_leaf(g, "attachTime", "2024-01-02T03:04:05.000Z");
    gen_leaf(g, "deleteOnTermination", "true");
    gen_close(g, "ebs");
    gen_close(g, "item");
    gen_close(g, "blockDeviceMapping");
    gen_leaf(g, "virtualizationType", "hvm");
    gen_leaf(g, "clientToken", gen_hex(g, "", 24, a));
    gen_open(g, "tagSet");
    gen_open(g, "item");
    gen_leaf(g, "key", "Name");
    snprintf(c, sizeof c, "%s-%u", names[gen_below(g, 5)], gen_below(g, 1000));
    gen_leaf(g, "value", c);
    gen_close(g, "item");
    gen_open(g, "item");
    gen_leaf(g, "key", "team");
    gen_leaf(g, "value", teams[gen_below(g, 5)]);
    gen_close(g, "item");
    gen_close(g, "tagSet");
    gen_leaf(g, "hypervisor", "xen");
    gen_open(g, "networkInterfaceSet");
    gen_open(g, "item");
    gen_leaf(g, "networkInterfaceId", gen_hex(g, "eni-", 17, a));
    gen_leaf(g, "subnetId", subnet);
    gen_leaf(g, "vpcId", vpc);
    gen_leaf(g, "description", "Primary network interface");
    gen_leaf(g, "ownerId", "123456789012");
    gen_leaf(g, "status", "in-use");
    snprintf(c, sizeof c, "0e:%02x:%02x:%02x:%02x:%02x", gen_below(g, 256), gen_below(g, 256), gen_below(g, 256),
             gen_below(g, 256), gen_below(g, 256));
    gen_leaf(g, "macAddress", c);
    snprintf(c, sizeof c, "%u.%u.%u.%u", ip[0], ip[1], ip[2], ip[3]);
    gen_leaf(g, "privateIpAddress", c);
    gen_leaf(g, "sourceDestCheck", "true");
    gen_open(g, "attachment");
    gen_leaf(g, "attachmentId", gen_hex(g, "eni-attach-", 17, b));
    gen_leaf(g, "deviceIndex", "0");
    gen_leaf(g, "status", "attached");
    gen_leaf(g, "attachTime", "2024-01-02T03:04:05.000Z");
    gen_leaf(g, "deleteOnTermination", "true");
    gen_close(g, "attachment");
    gen_close(g, "item");
    gen_close(g, "networkInterfaceSet");
    gen_leaf(g, "ebsOptimized", "false");
    gen_leaf(g, "enaSupport", "true");
    gen_open(g, "cpuOptions");
    gen_leaf(g, "coreCount", "1");
    gen_leaf(g, "threadsPerCore", "2");
    gen_close(g, "cpuOptions");
    gen_open(g, "metadataOptions");
    gen_leaf(g, "state", "applied");
    gen_leaf(g, "httpTokens", "required");
    gen_leaf(g, "httpPutResponseHopLimit", "2");
    gen_leaf(g, "httpEndpoint", "enabled");
    gen_close(g, "metadataOptions");
    gen_close(g, "item");
}

/* A document of at least `min_bytes` (a whole reservation at a time) from `seed`; free() its data. */
static struct gen_doc gen_describe_instances(size_t min_bytes, uint64_t seed) {
    struct gen_doc g = {NULL, 0, 0, seed, 0};
    char a[64], subnet[64], vpc[64];
    gen_printf(&g, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    gen_printf(&g, "<DescribeInstancesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">");
    g.depth = 1;
    gen_leaf(&g, "requestId", "8f7724cf-496f-496e-8fe3-example");
    gen_open(&g, "reservationSet");
    while (g.len < min_bytes) {
        gen_open(&g, "item");
        gen_leaf(&g, "reservationId", gen_hex(&g, "r-", 17, a));
        gen_leaf(&g, "ownerId", "123456789012");
        gen_leaf(&g, "groupSet", "");
        gen_open(&g, "instancesSet");
        gen_hex(&g, "subnet-", 17, subnet);
        gen_hex(&g, "vpc-", 17, vpc);
        for (unsigned i = 0, n = 1 + gen_below(&g, 4); i < n; i++) {
            gen_instance(&g, subnet, vpc);
        }
        gen_close(&g, "instancesSet");
        gen_close(&g, "item");
    }
    gen_close(&g, "reservationSet");
    gen_close(&g, "DescribeInstancesResponse");
    gen_put(&g, "\n", 1);
    return g;
}

#endif
