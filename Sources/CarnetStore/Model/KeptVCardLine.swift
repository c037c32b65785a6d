/// The rule for a contact's `vCardProperties`: the content lines of a card that no key holds, kept as the importer
/// read them and written back by the export. One source for the store, which refuses what the export could not
/// write back, and for the export, which leaves out lines stored before that rule.
public enum KeptVCardLine {
    /// The property name of `line`: up to its first `:` or `;`, upper-cased.
    public static func name(of line: some StringProtocol) -> String {
        line.prefix { $0 != ":" && $0 != ";" }.uppercased()
    }

    /// Whether `line` frames a card (BEGIN, END, VERSION): the export writes its own.
    public static func framesCard(_ line: some StringProtocol) -> Bool {
        ["BEGIN", "END", "VERSION"].contains(name(of: line))
    }
}
