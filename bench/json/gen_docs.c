/*
 * Writes the benchmark documents, deterministically (splitmix64, seed 42):
 *   people.json  {"people": [100,000 x {id, name, age, email, active, score, tags[2]}]}  ~12 MB
 *   ec2.json     DescribeInstances-like: 4,000 reservations, 17,800 instances           ~10 MB
 * Usage: gen_docs OUT_DIR [SCALE_PERCENT]   (SCALE_PERCENT shrinks both, for smoke tests)
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t s_state = 42;

static uint64_t s_next(void) {
    uint64_t z = (s_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static unsigned s_below(unsigned n) {
    return (unsigned)(s_next() % n);
}

static void s_hex(FILE *f, int digits) {
    for (int i = 0; i < digits; i++) {
        fputc("0123456789abcdef"[s_below(16)], f);
    }
}

static int s_people(const char *path, unsigned count) {
    static const char *const first[] = {"Ada",     "Grace",    "Linus",  "Barbara", "Ken",
                                        "Dennis",  "Margaret", "Alan",   "Edsger",  "Frances",
                                        "Niklaus", "Radia",    "Leslie", "Donald",  "Hedy"};
    static const char *const tags[] = {"admin", "ops", "dev", "qa", "sales", "support", "beta", "vip", "new"};
    FILE *f = fopen(path, "w");
    if (!f) {
        return 1;
    }
    fputs("{\"people\": [", f);
    for (unsigned i = 0; i < count; i++) {
        const char *name = first[s_below(15)];
        fprintf(f,
                "%s{\"id\": %u, \"name\": \"%s %u\", \"age\": %u, \"email\": \"u%u@example.com\", "
                "\"active\": %s, \"score\": %u.%02u, \"tags\": [\"%s\", \"%s\"]}",
                i ? ", " : "", i, name, i, s_below(81), i, s_below(2) ? "true" : "false", s_below(100), s_below(100),
                tags[s_below(9)], tags[s_below(9)]);
    }
    fputs("]}\n", f);
    return fclose(f) != 0;
}

static int s_ec2(const char *path, unsigned reservations) {
    static const char *const states[] = {"running", "running", "running", "stopped", "pending", "terminated"};
    static const int codes[] = {16, 16, 16, 80, 0, 48};
    static const char *const types[] = {"t3.micro", "m5.large", "c6g.xlarge", "r5.2xlarge", "t4g.nano"};
    static const char *const zones[] = {"us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d"};
    FILE *f = fopen(path, "w");
    if (!f) {
        return 1;
    }
    fputs("{\"Reservations\": [", f);
    for (unsigned r = 0; r < reservations; r++) {
        fprintf(f, "%s{\"ReservationId\": \"r-", r ? ", " : "");
        s_hex(f, 17);
        fputs("\", \"OwnerId\": \"123456789012\", \"Groups\": [], \"Instances\": [", f);
        /* 17,800 instances over 4,000 reservations: 4.45 on average. */
        unsigned n = 2 + s_below(5) + (s_below(20) < 9 ? 1 : 0);
        for (unsigned i = 0; i < n; i++) {
            unsigned s = s_below(6);
            fprintf(f, "%s{\"InstanceId\": \"i-", i ? ", " : "");
            s_hex(f, 17);
            fprintf(f,
                    "\", \"InstanceType\": \"%s\", \"LaunchTime\": \"2026-0%u-1%uT0%u:%u2:33.000Z\", "
                    "\"State\": {\"Code\": %d, \"Name\": \"%s\"}, "
                    "\"Placement\": {\"AvailabilityZone\": \"%s\", \"Tenancy\": \"default\"}, "
                    "\"PrivateIpAddress\": \"10.%u.%u.%u\", ",
                    types[s_below(5)], 1 + s_below(9), s_below(10), s_below(10), s_below(6), codes[s], states[s],
                    zones[s_below(4)], s_below(256), s_below(256), s_below(256));
            fputs("\"VpcId\": \"vpc-", f);
            s_hex(f, 17);
            fputs("\", \"Architecture\": \"x86_64\", \"RootDeviceType\": \"ebs\", "
                  "\"BlockDeviceMappings\": [{\"DeviceName\": \"/dev/xvda\", \"Ebs\": {\"AttachTime\": "
                  "\"2026-01-02T03:04:05.000Z\", \"DeleteOnTermination\": true, \"Status\": \"attached\", "
                  "\"VolumeId\": \"vol-",
                  f);
            s_hex(f, 17);
            fprintf(f,
                    "\"}}], \"Tags\": [{\"Key\": \"Name\", \"Value\": \"web-%u-%u\"}, {\"Key\": \"env\", "
                    "\"Value\": \"%s\"}]}",
                    r, i, s_below(2) ? "prod" : "staging");
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
    return fclose(f) != 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUT_DIR [SCALE_PERCENT]\n", argv[0]);
        return 2;
    }
    unsigned scale = argc > 2 ? (unsigned)atoi(argv[2]) : 100;
    if (scale == 0 || scale > 1000) {
        scale = 100;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/people.json", argv[1]);
    if (s_people(path, 100000 * scale / 100)) {
        perror(path);
        return 1;
    }
    snprintf(path, sizeof(path), "%s/ec2.json", argv[1]);
    if (s_ec2(path, 4000 * scale / 100)) {
        perror(path);
        return 1;
    }
    return 0;
}
