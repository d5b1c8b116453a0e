extension Completer {
    /// A completer over what the interpreter knows now: its headers, variables, the URL paths
    /// seen this session and those in the cassette being replayed or recorded.
    @MainActor
    public init(for interpreter: Interpreter) {
        let state = interpreter.state
        self.init(
            sessionHeaders: Array(state.headerNames).sorted(),
            variables: interpreter.variableNames,
            paths: Array(state.paths.union(state.cassettePaths)).sorted(),
            directory: interpreter.options.workingDirectory,
            currentPath: state.path,
            openAPI: interpreter.openAPI
        )
    }
}
