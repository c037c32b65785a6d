/// A command's failure in a sentence, printed as `Error: …` without the usage lines that an argument's refusal
/// (`ValidationError`) adds.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
