/* The waiter acceptors bench_codegen times: real AWS waiters' paths, comparators and expected values. */
#ifndef ANVIL_BENCH_CODEGEN_CASES_H
#define ANVIL_BENCH_CODEGEN_CASES_H

#include "anvil/waiter.h"

struct bench_codegen_case {
    const char *name;
    /*
     * "ec2" (the 17,842-instance DescribeInstances document, states mixed),
     * "ec2-running" (the same with every instance running: what a wait
     * that succeeds walks whole), "dynamodb" or "ecs" (typical answers).
     */
    const char *document;
    const char *path;
    enum anvil_waiter_comparator comparator;
    /* The expected value as JSON text. */
    const char *expected;
};

static const struct bench_codegen_case bench_codegen_cases[] = {
    {"EC2 InstanceRunning success", "ec2", "Reservations[].Instances[].State.Name", ANVIL_CMP_ALL_STRING_EQUALS,
     "\"running\""},
    {"EC2 InstanceRunning success, all running", "ec2-running", "Reservations[].Instances[].State.Name",
     ANVIL_CMP_ALL_STRING_EQUALS, "\"running\""},
    {"EC2 InstanceRunning failure", "ec2", "Reservations[].Instances[].State.Name", ANVIL_CMP_ANY_STRING_EQUALS,
     "\"terminated\""},
    {"(d) ec2 waiter", "ec2", "length(Reservations[].Instances[?State.Name != 'running'][]) == `0`",
     ANVIL_CMP_BOOLEAN_EQUALS, "true"},
    {"(d) ec2 waiter, all running", "ec2-running",
     "length(Reservations[].Instances[?State.Name != 'running'][]) == `0`", ANVIL_CMP_BOOLEAN_EQUALS, "true"},
    {"DynamoDB TableExists", "dynamodb", "Table.TableStatus", ANVIL_CMP_STRING_EQUALS, "\"ACTIVE\""},
    {"ECS ServicesStable", "ecs",
     "length(services[?!(length(deployments) == `1` && runningCount == desiredCount)]) == `0`",
     ANVIL_CMP_BOOLEAN_EQUALS, "true"},
    {"ECS ServicesInactive failure", "ecs", "failures[].reason", ANVIL_CMP_ANY_STRING_EQUALS, "\"MISSING\""},
    {"ECS ServicesInactive success", "ecs", "services[].status", ANVIL_CMP_ANY_STRING_EQUALS, "\"INACTIVE\""},
};

#define BENCH_CODEGEN_CASES (sizeof bench_codegen_cases / sizeof bench_codegen_cases[0])

#endif
