$version: "2"

// STS GetCallerIdentity, with a waiter that never succeeds: the credentials test
// waits on it for two simulated hours to see the role's credentials refreshed.
namespace com.amazonaws.sts

use aws.api#service
use aws.auth#sigv4
use aws.protocols#awsQuery
use smithy.waiters#waitable

@awsQuery
@sigv4(name: "sts")
@xmlNamespace(uri: "https://sts.amazonaws.com/doc/2011-06-15/")
@service(sdkId: "STS CALLER", endpointPrefix: "sts")
service CallerService {
    version: "2011-06-15"
    operations: [GetCallerIdentity]
}

@readonly
@waitable(
    AccountIsNever: {
        acceptors: [
            {
                state: "success"
                matcher: { output: { path: "Account", expected: "000000000000", comparator: "stringEquals" } }
            }
        ]
        minDelay: 60
        maxDelay: 120
    }
)
operation GetCallerIdentity {
    input := {}
    output := {
        UserId: String
        Account: String
        Arn: String
    }
}
