/// One logical line of a card: where its unfolded bytes are in the card's buffer.
struct RawLine {
    var range: Range<Int>
    /// The 1-based physical line it starts on.
    var number: Int
}
