/// Which script or test the current task's requests belong to, when several share one
/// cassette session at once (`tapedeck run --jobs`).
///
/// A recording tags each interaction with it (``Interaction/recordedBy``); a replay serves a
/// request from the interactions tagged with it, or untagged ones, and never from another's.
/// So scripts recorded side by side replay with the same answers in any order, one at a time
/// or in parallel.
///
/// ```swift
/// await CassetteScope.$name.withValue("login.tape") {
///     _ = try? await session.transport.send(request)   // recorded as login.tape's
/// }
/// ```
public enum CassetteScope {
    /// The name of the script or test whose requests run in this task; nil outside any.
    @TaskLocal public static var name: String?
}
