$version: "2"

metadata owner = "anvil tests"

namespace example.split

/// One thing, polled until it is ready.
service Things {
    version: "2026-11-24"
    operations: [GetThing]
}

@readonly
operation GetThing {
    input := {
        @required
        Name: String
    }
    output := {
        Status: Status
    }
    errors: [NoSuchThing]
}

enum Status {
    PENDING
    READY
}

@error("client")
structure NoSuchThing {}
