import Foundation
import NIOCore

extension ByteBuffer {
    /// The readable bytes as `Data`, copied in one piece (`Data(readableBytesView)` goes
    /// through the generic sequence initialiser, a dynamic cast and a loop over the bytes).
    var readableData: Data {
        readableBytes == 0 ? Data() : withUnsafeReadableBytes { Data($0) }
    }
}
