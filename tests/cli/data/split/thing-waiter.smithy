$version: "2"

// The waiter lives in a file of its own: `anvil wait --model A --model B`
// assembles one model from both, as Smithy does.
namespace example.split

use smithy.waiters#waitable

apply GetThing @waitable(
    ThingReady: {
        minDelay: 1
        maxDelay: 2
        acceptors: [
            { state: "success", matcher: { output: { path: "Status", expected: "READY", comparator: "stringEquals" } } }
            { state: "retry", matcher: { errorType: NoSuchThing } }
        ]
    }
)
