$version: "2"

namespace example.cbor

use smithy.protocols#rpcv2Cbor

/// A service that speaks only a protocol anvil does not (Smithy RPC v2 CBOR).
@rpcv2Cbor
service CborOnly {
    version: "2024-01-01"
    operations: [Ping]
}

operation Ping {}
