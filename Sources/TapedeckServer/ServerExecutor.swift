import NIOCore

/// Runs a task's jobs on one event loop: the executor preference of the task that answers a
/// request later (forwarded, recorded), so it runs on the thread its connection reads on,
/// where the upstream's answer also arrives, instead of crossing to one of Swift's worker
/// threads and back (thread switches were most of a recording proxy's time under load).
///
/// A job must not block for long: it would hold up every connection of its loop.
final class EventLoopExecutor: TaskExecutor {
    /// The loop the jobs run on.
    let loop: any EventLoop

    /// The executor the current task prefers, for the tasks it starts (an unstructured task
    /// does not inherit its creator's preference).
    @TaskLocal static var current: EventLoopExecutor?

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        loop.execute { job.runSynchronously(on: executor) }
    }
}
