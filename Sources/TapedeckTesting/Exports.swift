// A test file that imports TapedeckTesting alone can name, from the core, what tests need,
// re-exported declaration by declaration: the types TapedeckTesting's public signatures take
// and return, and what the README's testing examples use. Not the whole module: a test whose app declares its
// own `HTTPMethod`, `HTTPRequest` or `Endpoint` must not find two of them ("'HTTPMethod' is
// ambiguous for type lookup"). Anything else comes with `import Tapedeck`, or one declaration
// at a time (`import struct Tapedeck.HTTPHeaders`).
//
// `TapedeckSession.sentRequests(to:method:)` takes an `HTTPMethod` and returns `[HTTPRequest]`,
// and `SampleResponse` holds `HTTPHeaders`; they are left out on purpose (names apps and their
// networking libraries declare too): `.get`, a header literal and `request.url` work without
// naming them.

// Arguments of `.cassette(…)`, `withCassette`, `URLSession.replaying` and `.recording`.
@_exported import struct Tapedeck.Matcher
@_exported import enum Tapedeck.RecordMode
@_exported import struct Tapedeck.Redactor
@_exported import struct Tapedeck.NetworkConditions
// What `URLSession.recording(to:mode:configure:)`, `.session(for:)`, `.replaying(_:)` and
// `.recording(_:)` take or configure.
@_exported import struct Tapedeck.CassetteConfiguration
@_exported import class Tapedeck.OpenCassette
@_exported import class Tapedeck.ReplayTransport
@_exported import class Tapedeck.RecordingTransport
// Errors the sessions throw (`throws(CassetteError)`; `CassetteDriftError.report`), and the
// one the README's tests switch on (`HTTPError.notConnected`).
@_exported import enum Tapedeck.CassetteError
@_exported import struct Tapedeck.VerifyReport
@_exported import enum Tapedeck.HTTPError
// What tests written by `tapedeck generate swift` read bodies with (`JSONParser.parse(data)`).
@_exported import struct Tapedeck.JSONParser
