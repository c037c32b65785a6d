import Foundation

/// The cards of a vCard file, each parsed when the iteration reaches it.
///
/// Each element is a card or the issue that made a card (or text outside any card) unreadable, in file order.
public struct VCardSequence: Sequence, Sendable {
    private let input: FileBytes
    private let reader: VCardReader

    init(data: Data, reader: VCardReader) {
        self.input = FileBytes(data)
        self.reader = reader
    }

    /// Starts at the beginning of the file; each iterator parses the file anew.
    public func makeIterator() -> Iterator {
        Iterator(input: input, reader: reader)
    }

    /// Parses the next card on each call to ``next()``.
    public struct Iterator: IteratorProtocol, Sendable {
        private var scanner: CardScanner
        private var fileIssue: VCardIssue?
        private let reader: VCardReader
        private var finished = false

        init(input: FileBytes, reader: VCardReader) {
            self.scanner = CardScanner(data: input.bytes, maxLineBytes: reader.maxLineBytes)
            self.fileIssue = input.issue
            self.reader = reader
        }

        /// The next card or issue; `nil` at the end of the file (or after the first issue, when strict).
        public mutating func next() -> Result<VCardCard, VCardIssue>? {
            if finished { return nil }
            if let issue = fileIssue {
                finished = true
                return .failure(issue)
            }
            guard let scanned = scanner.next() else {
                finished = true
                return nil
            }
            let result: Result<VCardCard, VCardIssue>
            switch scanned {
            case .failure(let issue): result = .failure(issue)
            case .success(let beginLine):
                let (maxPhotoBytes, textIsDecoded) = (reader.maxPhotoBytes, reader.textIsDecoded)
                result = scanner.withCard { buffer, lines in
                    do throws(VCardIssue) {
                        let card = try CardDecoder.decode(
                            buffer, lines: lines, beginLine: beginLine, maxPhotoBytes: maxPhotoBytes,
                            textIsDecoded: textIsDecoded)
                        return .success(card)
                    } catch {
                        return .failure(error)
                    }
                }
            }
            if reader.strict, case .failure = result { finished = true }
            return result
        }
    }
}
